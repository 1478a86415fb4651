-- Issue 39, the desk's booking actions (decision 151): money recorded by staff, the refunds ledger,
-- what a reinstated booking takes back, and the check that makes a refused action write nothing.

-- A payment recorded at the desk (provider 'desk'): who recorded it, and what identifies the money
-- (a bank transfer's date and the payer's last five account digits; a card terminal's slip number).
ALTER TABLE payments ADD COLUMN staff_id INTEGER REFERENCES staff(id);
ALTER TABLE payments ADD COLUMN reference TEXT NOT NULL DEFAULT '';

-- Every refund of an order, whoever paid it back: the gateway asked at a cancellation, the gateway
-- asked from the desk, or the hotel by hand (with its reference). A row is written 'pending' before
-- a gateway is asked (so that two staff at once cannot both ask it), then 'done' or 'failed'.
CREATE TABLE refunds (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  order_id INTEGER NOT NULL REFERENCES orders(id),
  -- The gateway payment it was asked of; NULL for money paid back by hand.
  payment_id INTEGER REFERENCES payments(id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  method TEXT NOT NULL CHECK (method IN ('gateway', 'manual')),
  status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
  reference TEXT NOT NULL DEFAULT '',
  staff_id INTEGER REFERENCES staff(id),
  message TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX refunds_by_order ON refunds (order_id, id);

-- Never more than was paid: what the order's refunds (pending or done) add up to stays within the
-- money that reached the hotel for it (applied to the order, or kept as late or overpaid), and what
-- is asked of one gateway payment within that payment.
CREATE TRIGGER refunds_never_more_than_paid BEFORE INSERT ON refunds
BEGIN
  SELECT RAISE(ABORT, 'refund_more_than_paid')
  WHERE (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE order_id = NEW.order_id AND status != 'failed') + NEW.amount
    > (SELECT paid_amount FROM orders WHERE id = NEW.order_id)
      + (SELECT COALESCE(SUM(amount), 0) FROM payments WHERE order_id = NEW.order_id AND status IN ('late', 'overpaid'));
  SELECT RAISE(ABORT, 'refund_more_than_payment')
  WHERE NEW.payment_id IS NOT NULL
    AND (SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE payment_id = NEW.payment_id AND status != 'failed') + NEW.amount
      > (SELECT amount FROM payments WHERE id = NEW.payment_id AND order_id = NEW.order_id);
END;

-- Refunds the gateways confirmed before this ledger existed: recorded, so that none is due again.
INSERT INTO refunds (hotel_id, order_id, amount, method, status, message)
  SELECT o.hotel_id, c.order_id, c.refund, 'gateway', 'done', 'recorded before migration 0017'
  FROM cancellations c JOIN orders o ON o.id = c.order_id WHERE c.refund_status = 'refunded' AND c.refund > 0;

-- What a cancellation released, kept so that a booking the expiry sweep cancelled can take the same
-- rooms and add-ons back when its money turns out to have arrived in time (decision 151).
CREATE TABLE order_nights_released (
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  line_position INTEGER NOT NULL,
  room_class_id INTEGER NOT NULL,
  rate_plan_id INTEGER NOT NULL,
  night TEXT NOT NULL,
  rooms INTEGER NOT NULL,
  price INTEGER NOT NULL,
  PRIMARY KEY (order_id, line_position, night)
) WITHOUT ROWID;
CREATE TRIGGER order_nights_keep_released AFTER DELETE ON order_nights
BEGIN
  INSERT OR REPLACE INTO order_nights_released (order_id, line_position, room_class_id, rate_plan_id, night, rooms, price)
  VALUES (OLD.order_id, OLD.line_position, OLD.room_class_id, OLD.rate_plan_id, OLD.night, OLD.rooms, OLD.price);
END;

CREATE TABLE order_addon_days_released (
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  addon_id INTEGER NOT NULL,
  day TEXT NOT NULL,
  units INTEGER NOT NULL,
  PRIMARY KEY (order_id, addon_id, day)
) WITHOUT ROWID;
CREATE TRIGGER order_addon_days_keep_released AFTER DELETE ON order_addon_days
BEGIN
  INSERT OR REPLACE INTO order_addon_days_released (order_id, addon_id, day, units) VALUES (OLD.order_id, OLD.addon_id, OLD.day, OLD.units);
END;

-- A released rail line held again (a reinstated booking) takes its seats back: the allotment's CHECK
-- refuses when another order has taken them meanwhile.
CREATE TRIGGER rail_reservations_take_again AFTER UPDATE OF status ON rail_reservations
WHEN OLD.status = 'released' AND NEW.status IN ('reserved', 'booked')
BEGIN
  UPDATE rail_allotments SET taken = taken + NEW.seats
  WHERE hotel_id = NEW.hotel_id AND train_no = NEW.train_no AND day = NEW.day;
END;

-- A desk action's batch ends with `INSERT INTO desk_refusals SELECT ... WHERE <the change did not
-- happen>`: the row aborts the whole batch, its audit entry included, so a refused action leaves no
-- trace but its answer and its form_key stays unused.
CREATE VIEW desk_refusals AS SELECT '' AS reason;
CREATE TRIGGER desk_refusals_abort INSTEAD OF INSERT ON desk_refusals
BEGIN
  SELECT RAISE(ABORT, 'desk_refused');
END;
