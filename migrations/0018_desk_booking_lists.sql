-- Issue 39, the desk's booking lists (decision 152): each list and search reads one index range of
-- one hotel, so the rows read for a page do not grow with the hotel's history.

-- Arriving on a day, departing on a day (keyset by id within the day).
CREATE INDEX orders_desk_arrivals ON orders (hotel_id, check_in_day, id);
CREATE INDEX orders_desk_departures ON orders (hotel_id, check_out_day, id);
-- New since a staff member's last visit: newest first, by when they were made.
CREATE INDEX orders_desk_created ON orders (hotel_id, created_at, id);
-- In house, awaiting payment (by deadline; an order without one last), cancelled: partial indexes
-- hold only the orders in that state.
CREATE INDEX orders_desk_in_house ON orders (hotel_id, id) WHERE stay_status = 'in_house';
CREATE INDEX orders_desk_awaiting ON orders (hotel_id, coalesce(pay_deadline, '9999'), id) WHERE status = 'pending_payment';
CREATE INDEX orders_desk_cancelled ON orders (hotel_id, id) WHERE status = 'cancelled';
-- Refunds owed: only cancellations still 'due' (they leave the index once refunded).
CREATE INDEX cancellations_desk_due ON cancellations (id) WHERE refund_status = 'due';
-- Search by name: a prefix of the name without spaces, case-insensitive for Latin letters (CJK
-- names have no case), of the booker's full name and of the family name alone.
CREATE INDEX orders_desk_name ON orders (hotel_id, lower(replace(booker_name, ' ', '')));
CREATE INDEX orders_desk_last_name ON orders (hotel_id, lower(replace(booker_last_name, ' ', '')));
-- A booking's timeline: the gateways' callbacks that name its trade numbers.
CREATE INDEX payment_events_by_trade ON payment_events (trade_no);
-- Reports and exports by month (across hotels, joined to the hotel's orders: a month's rows only):
-- payments by when they were made and when they were paid, cancellations by when they were made.
CREATE INDEX payments_by_created ON payments (created_at);
CREATE INDEX payments_by_paid ON payments (paid_at) WHERE paid_at IS NOT NULL;
CREATE INDEX cancellations_by_created ON cancellations (created_at);
