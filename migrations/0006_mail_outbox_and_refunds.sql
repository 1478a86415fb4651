-- Email outbox, refunds recorded on cancellation, and a hotel's own refund ladder
-- (docs/decisions/040–044).

-- Every email the site sends is first a row here, written in the same D1 batch as the order or the
-- cancellation it is about: no order is ever without its email. A message's subject and bodies are
-- rendered once, right after the batch (or by the delivery step if that did not happen), and then
-- never change. Delivery (waitUntil after the response, and the scheduled handler) retries with
-- back-off until `attempts` reaches the limit.
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  order_id INTEGER REFERENCES orders(id),
  kind TEXT NOT NULL CHECK (kind IN ('order_confirmation', 'order_cancellation', 'paid_receipt')),
  lang TEXT NOT NULL,
  to_address TEXT NOT NULL,
  -- Where the links in the message point: the hotel site's origin and the spec's {product}.
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
CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);
CREATE INDEX mail_outbox_order ON mail_outbox (order_id);

-- What is owed back to the guest after a cancellation: 'none' (nothing was paid), 'due' (recorded,
-- to be paid back through the payment's vendor or by the hotel), 'refunded' (the vendor confirmed).
ALTER TABLE cancellations ADD COLUMN refund_status TEXT NOT NULL DEFAULT 'none'
  CHECK (refund_status IN ('none', 'due', 'refunded'));
-- Which rule set the refund: 'free' (the plan's free-cancellation window), 'ladder' (the standard
-- contract's or the hotel's own ladder), or 'unpaid'.
ALTER TABLE cancellations ADD COLUMN refund_rule TEXT NOT NULL DEFAULT '';
ALTER TABLE cancellations ADD COLUMN refund_percent INTEGER NOT NULL DEFAULT 0 CHECK (refund_percent BETWEEN 0 AND 100);
ALTER TABLE cancellations ADD COLUMN points_returned INTEGER NOT NULL DEFAULT 0 CHECK (points_returned >= 0);

-- A hotel's own refund ladder after the free window: JSON [{"days_before": n, "percent": p}, ...]:
-- empty: the standard contract's ladder applies.
ALTER TABLE hotels ADD COLUMN refund_ladder TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(refund_ladder));
