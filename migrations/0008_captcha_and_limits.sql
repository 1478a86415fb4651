-- The captcha and the limits against abuse (docs/decisions/070–072).

-- Nonces of captcha challenges and passes already used: each token works once. Rows outlive their
-- token's expiry only until the next spend clears them.
CREATE TABLE captcha_spent (
  nonce TEXT PRIMARY KEY,
  expires_at TEXT NOT NULL
);
CREATE INDEX captcha_spent_expiry ON captcha_spent (expires_at);

-- Things a caller did, counted over a window by the limits: 'signup' and 'captcha_wrong' by caller
-- (an address, IPv6 by /64), 'order_change' (an order created or cancelled) by caller.
CREATE TABLE abuse_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  subject TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX abuse_events_subject ON abuse_events (kind, subject, at);

-- The hotel's own thresholds (hotel file `abuse_limits`), JSON over the defaults of app/booking/abuse-limits.ts.
ALTER TABLE hotels ADD COLUMN abuse_limits TEXT NOT NULL DEFAULT '{}';

-- Who placed an order, normalised (app/booking/identity.ts), for the unpaid-hold limit: the email as
-- one mailbox, the phone in E.164, the address by caller (IPv6 by /64). Orders placed before this
-- have none and are counted by their email as typed.
ALTER TABLE orders ADD COLUMN email_key TEXT;
ALTER TABLE orders ADD COLUMN phone_key TEXT;
ALTER TABLE orders ADD COLUMN caller_key TEXT;
CREATE INDEX orders_email_key ON orders (hotel_id, email_key);
CREATE INDEX orders_phone_key ON orders (hotel_id, phone_key);
CREATE INDEX orders_caller_key ON orders (hotel_id, caller_key);

-- A sign-up waits for its email link (decision 071): nothing is a member until the link is followed.
-- The token itself is never stored, only its SHA-256. `used_at` makes the link one-time.
CREATE TABLE signup_requests (
  token_hash TEXT PRIMARY KEY,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  email TEXT NOT NULL COLLATE NOCASE,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  phone TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  lang TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX signup_requests_email ON signup_requests (hotel_id, email);

-- The sign-up link is an email like any other ('account_signup', no order; the kind is allowed by
-- 0007's rebuild of the outbox), and a recipient's order emails are counted per day (decision 072).
CREATE INDEX mail_outbox_recipient ON mail_outbox (hotel_id, to_address, created_at);
