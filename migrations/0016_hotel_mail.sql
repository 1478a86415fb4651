-- Issue 39, the hotel hears of everything (decision 150). The addresses the hotel's own emails go
-- to (a JSON list; the hotel's email until its file names others).
ALTER TABLE hotels ADD COLUMN reservation_emails TEXT NOT NULL DEFAULT '[]';
UPDATE hotels SET reservation_emails = json_array(email) WHERE email != '';
-- What a hotel email is about beyond its order: who cancelled ('guest', 'sweep', 'staff').
ALTER TABLE mail_outbox ADD COLUMN about TEXT NOT NULL DEFAULT '';
-- The morning email, once per hotel and local date: the Cron run that inserts the row is the one
-- that queues it (`run` names it), and a second run finds the key taken.
CREATE TABLE hotel_mornings (
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  day TEXT NOT NULL,
  run TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (hotel_id, day)
) WITHOUT ROWID;
-- The morning's lists read a hotel's arrivals and departures of one day, not its history.
CREATE INDEX orders_by_check_in ON orders (hotel_id, check_in_day);
CREATE INDEX orders_by_check_out ON orders (hotel_id, check_out_day);
