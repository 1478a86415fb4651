-- Issue 41, the e-invoice issued after the guest's emails (decision 163): the outbox takes the
-- guest's "invoice issued" email ('invoice_issued', the number in `about`), and a message found not
-- needed when it is composed is kept as 'skipped' (an email before it already carried the number).
-- The table is rebuilt for its CHECKs, with every column (0016's `about`) and index it had (0015).
CREATE TABLE mail_outbox_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  order_id INTEGER REFERENCES orders(id),
  kind TEXT NOT NULL CHECK (kind IN ('order_confirmation', 'order_cancellation', 'paid_receipt', 'hotel_payment_alert', 'account_signup', 'account_signin_link',
    'hotel_new_booking', 'hotel_cancellation', 'hotel_payment_received', 'hotel_refund_due', 'hotel_morning', 'staff_invite', 'invoice_issued')),
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
