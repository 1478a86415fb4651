-- Payments that land once (docs/decisions/047): an attempt a newer one replaced before it was paid is
-- 'superseded'; money beyond what its order owed is 'overpaid', owed back like 'late' money; the hotel
-- is told of both by email ('hotel_payment_alert'; with 'account_signup' for 0008's sign-up link).
-- SQLite cannot change a CHECK constraint in place,
-- so both tables are rebuilt with their rows. Nothing references either table.

CREATE TABLE payments_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  vendor_id INTEGER NOT NULL,
  provider TEXT NOT NULL,
  trade_no TEXT NOT NULL UNIQUE,
  gateway_trade_no TEXT NOT NULL DEFAULT '',
  amount INTEGER NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL DEFAULT 'TWD',
  purpose TEXT NOT NULL CHECK (purpose IN ('full', 'deposit', 'balance')),
  -- late: the money arrived after its order was cancelled; overpaid: beyond what the order owed;
  -- both are owed back to the guest. superseded: a newer attempt replaced it before it was paid.
  status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'code_issued', 'paid', 'failed', 'superseded', 'late', 'overpaid', 'refunded')),
  -- Whether the money has been accounted for (added to its order, or to its cancellation's refund), once, ever.
  applied INTEGER NOT NULL DEFAULT 0 CHECK (applied IN (0, 1)),
  code_info TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(code_info)),
  message TEXT NOT NULL DEFAULT '',
  paid_at TEXT,
  -- How the money was actually paid, as the gateway said ('credit', 'atm', 'cvs', 'barcode', 'webatm',
  -- 'wallet'; '' when it did not say): an ATM transfer is never called a card payment.
  paid_with TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO payments_new (id, order_id, vendor_id, provider, trade_no, gateway_trade_no, amount, currency, purpose, status, applied, code_info, message, paid_at, created_at, updated_at)
  SELECT id, order_id, vendor_id, provider, trade_no, gateway_trade_no, amount, currency, purpose, status, applied, code_info, message, paid_at, created_at, updated_at FROM payments;
DROP TABLE payments;
ALTER TABLE payments_new RENAME TO payments;
CREATE INDEX payments_by_order ON payments (order_id, id);

CREATE TABLE mail_outbox_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  order_id INTEGER REFERENCES orders(id),
  -- account_signup: the sign-up link (decision 071, migration 0008), added here so the table is rebuilt once.
  kind TEXT NOT NULL CHECK (kind IN ('order_confirmation', 'order_cancellation', 'paid_receipt', 'hotel_payment_alert', 'account_signup')),
  lang TEXT NOT NULL,
  to_address TEXT NOT NULL,
  site_origin TEXT NOT NULL,
  product TEXT NOT NULL DEFAULT 'hxa',
  subject TEXT,
  text_body TEXT,
  html_body TEXT,
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_error TEXT NOT NULL DEFAULT '',
  provider_id TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  sent_at TEXT
);
INSERT INTO mail_outbox_new SELECT id, hotel_id, order_id, kind, lang, to_address, site_origin, product, subject, text_body, html_body, status, attempts, next_attempt_at, last_error, provider_id, created_at, sent_at FROM mail_outbox;
DROP TABLE mail_outbox;
ALTER TABLE mail_outbox_new RENAME TO mail_outbox;
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);
CREATE INDEX mail_outbox_order ON mail_outbox (order_id);

-- Callback events are kept for a bounded time (the scheduled job prunes them): by age.
CREATE INDEX payment_events_by_age ON payment_events (created_at);
