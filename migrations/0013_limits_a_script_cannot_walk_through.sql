-- Issue 37, limits a script cannot walk through (decision 132).

-- A wrong password is counted by the caller's /48 too (empty for IPv4): one actor with a whole
-- /48 has 65,536 /64s, each a caller of its own.
ALTER TABLE login_failures ADD COLUMN net TEXT NOT NULL DEFAULT '';
CREATE INDEX login_failures_account_net ON login_failures (hotel_id, email, net, at);
CREATE INDEX login_failures_account_ip ON login_failures (hotel_id, email, ip, at);

-- An order remembers its caller's /56 (one household: the same guest as its /64) and /48 (one
-- site: counted with a wider ceiling). Empty for IPv4 and this machine's own requests.
ALTER TABLE orders ADD COLUMN caller_net56 TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN caller_net48 TEXT NOT NULL DEFAULT '';
CREATE INDEX orders_caller_net56 ON orders (hotel_id, caller_net56);
CREATE INDEX orders_caller_net48 ON orders (hotel_id, caller_net48);

-- A one-time sign-in link emailed to a member (decision 132): the way in that proves more than a
-- captcha, for a caller refused after too many wrong passwords or sharing an address with one.
-- Only the token's SHA-256 is kept; the link works on the site it was asked from, once, briefly.
CREATE TABLE signin_links (
  token_hash TEXT PRIMARY KEY,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  site_origin TEXT NOT NULL,
  lang TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX signin_links_member ON signin_links (member_id);

-- The outbox takes the sign-in link's email ('account_signin_link'); the table is rebuilt for its
-- CHECK, with every index it had (0007, 0008, 0012).
CREATE TABLE mail_outbox_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  order_id INTEGER REFERENCES orders(id),
  kind TEXT NOT NULL CHECK (kind IN ('order_confirmation', 'order_cancellation', 'paid_receipt', 'hotel_payment_alert', 'account_signup', 'account_signin_link')),
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
CREATE INDEX mail_outbox_recipient ON mail_outbox (hotel_id, to_address, created_at);
CREATE INDEX mail_outbox_recipient_nocase ON mail_outbox (hotel_id, to_address COLLATE NOCASE, created_at);
CREATE INDEX mail_outbox_uncomposed ON mail_outbox (id) WHERE subject IS NULL AND status = 'queued';

-- Rooms held by orders that pay nothing online (pay at arrival, bank transfer, cash) are capped per
-- room class and night at a share of the rooms to sell (`abuse_limits.unpaid_rooms_percent`, 50
-- unless the hotel file says otherwise), rounded up to whole rooms so that a room class of one
-- room can still be booked to pay at the hotel: one actor with many addresses, mailboxes and phones can
-- no longer hold a room class for nothing. Checked in the order's own batch, so two orders at once
-- cannot both take the last of the share. A paid order, or one paying online, is never held by it.
CREATE INDEX order_nights_by_night ON order_nights (room_class_id, night);
CREATE TRIGGER order_nights_unpaid_share AFTER INSERT ON order_nights
WHEN (SELECT pay_way IN ('pay_arrival', 'remittance', 'cash') AND paid_amount = 0 AND pay_amount > 0 FROM orders WHERE id = NEW.order_id)
BEGIN
  SELECT RAISE(ABORT, 'unpaid_share_reached')
  FROM (
    SELECT
      COALESCE(SUM(CASE WHEN o.pay_way IN ('pay_arrival', 'remittance', 'cash') AND o.paid_amount = 0 AND o.pay_amount > 0
                         AND o.status IN ('pending_payment', 'confirmed') THEN n.rooms END), 0) AS unpaid,
      COALESCE(SUM(n.rooms), 0) AS taken
    FROM order_nights n JOIN orders o ON o.id = n.order_id
    WHERE n.room_class_id = NEW.room_class_id AND n.night = NEW.night
  ) AS held
  -- Only when the rooms are there: an order that would oversell is refused by the inventory's own
  -- CHECK as "not enough rooms", whichever trigger runs first.
  WHERE held.taken <= (SELECT rn.capacity FROM room_nights rn WHERE rn.room_class_id = NEW.room_class_id AND rn.night = NEW.night)
    AND held.unpaid > ((
    SELECT rn.capacity FROM room_nights rn WHERE rn.room_class_id = NEW.room_class_id AND rn.night = NEW.night
  ) * (
    SELECT COALESCE(json_extract(h.abuse_limits, '$.unpaid_rooms_percent'), 50)
    FROM orders o JOIN hotels h ON h.id = o.hotel_id WHERE o.id = NEW.order_id
  ) + 99) / 100;
END;
