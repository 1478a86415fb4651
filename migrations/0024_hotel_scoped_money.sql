-- Issue 39: the desk's month report and its payments export read one hotel's money, not every
-- hotel's. Payments and cancellations carry their order's hotel (copied by a trigger, so no writer
-- has to remember it), and are indexed by hotel first: a hotel's report reads its own rows however
-- many other hotels share the database. Replaces 0018's indexes by time alone.

ALTER TABLE payments ADD COLUMN hotel_id INTEGER REFERENCES hotels(id);
UPDATE payments SET hotel_id = (SELECT hotel_id FROM orders WHERE orders.id = payments.order_id);
CREATE TRIGGER payments_hotel AFTER INSERT ON payments WHEN NEW.hotel_id IS NULL
BEGIN UPDATE payments SET hotel_id = (SELECT hotel_id FROM orders WHERE id = NEW.order_id) WHERE id = NEW.id; END;

ALTER TABLE cancellations ADD COLUMN hotel_id INTEGER REFERENCES hotels(id);
UPDATE cancellations SET hotel_id = (SELECT hotel_id FROM orders WHERE orders.id = cancellations.order_id);
CREATE TRIGGER cancellations_hotel AFTER INSERT ON cancellations WHEN NEW.hotel_id IS NULL
BEGIN UPDATE cancellations SET hotel_id = (SELECT hotel_id FROM orders WHERE id = NEW.order_id) WHERE id = NEW.id; END;

DROP INDEX payments_by_created;
DROP INDEX payments_by_paid;
DROP INDEX cancellations_by_created;
CREATE INDEX payments_hotel_created ON payments (hotel_id, created_at, id);
CREATE INDEX payments_hotel_paid ON payments (hotel_id, paid_at) WHERE paid_at IS NOT NULL;
CREATE INDEX cancellations_hotel_created ON cancellations (hotel_id, created_at);
DROP INDEX cancellations_desk_due;
CREATE INDEX cancellations_desk_due ON cancellations (hotel_id, id) WHERE refund_status = 'due';
