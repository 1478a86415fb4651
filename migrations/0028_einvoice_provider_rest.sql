-- Decision 170: after a provider answers HTTP 403 ("too fast": ECPay asks for 30 minutes' rest),
-- the hotel's provider is left alone until `until`: no call of any kind (an issue, a remote check at
-- booking, a desk action) is made for that hotel before then. One row per hotel, kept apart from
-- hotel_invoicing so a re-import of the hotel file never clears a rest in progress.
CREATE TABLE einvoice_provider_rest (
  hotel_id INTEGER PRIMARY KEY REFERENCES hotels(id),
  until TEXT NOT NULL CHECK (until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
  reason TEXT NOT NULL DEFAULT ''
);
