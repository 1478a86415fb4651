-- Issue 41, allowances by the buyer's emailed consent (ECPay AllowanceByCollegiate, decision 167).
-- The hotel file's `invoicing.allowance`: made at once (as before) or by the buyer's consent.
ALTER TABLE hotel_invoicing ADD COLUMN allowance_mode TEXT NOT NULL DEFAULT 'immediate' CHECK (allowance_mode IN ('immediate', 'consent'));

-- An order's allowances may await the buyer's consent, be refused by them, or lapse (72 hours).
-- Rebuilt for its CHECK, with every column it had (0023); found by number when the provider's
-- consent callback names one.
CREATE TABLE einvoice_allowances_new (
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL CHECK (seq >= 1),
  invoice_seq INTEGER NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0),
  status TEXT NOT NULL CHECK (status IN ('sent', 'issued', 'voided', 'awaiting', 'refused', 'expired')),
  number TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (order_id, seq)
);
INSERT INTO einvoice_allowances_new SELECT order_id, seq, invoice_seq, amount, status, number FROM einvoice_allowances;
DROP TABLE einvoice_allowances;
ALTER TABLE einvoice_allowances_new RENAME TO einvoice_allowances;
CREATE INDEX einvoice_allowances_by_number ON einvoice_allowances (number) WHERE number != '';

-- The sandbox asks the buyer as ECPay does: an allowance awaiting consent reserves its amount
-- until the buyer agrees (issued), refuses, or the link lapses; the consent page finds it by an
-- unguessable token and posts the signed callback to the return address's path.
CREATE TABLE einvoice_sandbox_allowances_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL,
  number TEXT NOT NULL UNIQUE,
  invoice_number TEXT NOT NULL REFERENCES einvoice_sandbox_invoices(number),
  amount INTEGER NOT NULL CHECK (amount > 0),
  status TEXT NOT NULL CHECK (status IN ('issued', 'voided', 'awaiting', 'refused', 'expired')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  token TEXT UNIQUE CHECK (token IS NULL OR (length(token) = 32 AND token NOT GLOB '*[^0-9a-f]*')),
  return_url TEXT NOT NULL DEFAULT '',
  expires_at TEXT NOT NULL DEFAULT '',
  lang TEXT NOT NULL DEFAULT 'zh-TW',
  decided_at TEXT
);
INSERT INTO einvoice_sandbox_allowances_new (id, hotel_id, number, invoice_number, amount, status, created_at)
  SELECT id, hotel_id, number, invoice_number, amount, status, created_at FROM einvoice_sandbox_allowances;
DROP TABLE einvoice_sandbox_allowances;
ALTER TABLE einvoice_sandbox_allowances_new RENAME TO einvoice_sandbox_allowances;

-- The outbox takes the sandbox's consent email ('einvoice_consent', the consent page's token in
-- `about`). Rebuilt for its CHECK, with every column and index it had (0025).
CREATE TABLE mail_outbox_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  order_id INTEGER REFERENCES orders(id),
  kind TEXT NOT NULL CHECK (kind IN ('order_confirmation', 'order_cancellation', 'paid_receipt', 'hotel_payment_alert', 'account_signup', 'account_signin_link',
    'hotel_new_booking', 'hotel_cancellation', 'hotel_payment_received', 'hotel_refund_due', 'hotel_morning', 'staff_invite', 'invoice_issued',
    'einvoice_consent')),
  lang TEXT NOT NULL,
  to_address TEXT NOT NULL,
  site_origin TEXT NOT NULL,
  product TEXT NOT NULL DEFAULT 'hxa',
  subject TEXT,
  text_body TEXT,
  html_body TEXT,
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed', 'skipped')),
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_error TEXT NOT NULL DEFAULT '',
  provider_id TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  sent_at TEXT,
  about TEXT NOT NULL DEFAULT ''
);
INSERT INTO mail_outbox_new SELECT id, hotel_id, order_id, kind, lang, to_address, site_origin, product, subject, text_body, html_body, status, attempts, next_attempt_at, last_error, provider_id, created_at, sent_at, about FROM mail_outbox;
DROP TABLE mail_outbox;
ALTER TABLE mail_outbox_new RENAME TO mail_outbox;
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);
CREATE INDEX mail_outbox_order ON mail_outbox (order_id);
CREATE INDEX mail_outbox_recipient ON mail_outbox (hotel_id, to_address, created_at);
CREATE INDEX mail_outbox_recipient_nocase ON mail_outbox (hotel_id, to_address COLLATE NOCASE, created_at);
CREATE INDEX mail_outbox_uncomposed ON mail_outbox (id) WHERE subject IS NULL AND status = 'queued';
