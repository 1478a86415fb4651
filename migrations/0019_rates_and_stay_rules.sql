-- Issue 40 (decisions 154–157): rooms to sell, prices and stay rules that the hotel sets per night
-- at the desk, the standing rules that roll the calendar forward, and what a re-import keeps.
--
-- Stay rules (docs/rates-model.md maps each to OTA_HotelAvailNotifRQ): a room class's row applies to
-- all its plans, a plan's row (per room class) adds its own; a stay obeys both.
--   closed        stop sell: nothing is sold that night (OTA Status="Close").
--   min_stay      minimum nights of a stay ARRIVING that night (OTA LengthOfStay MinLOS, arrival based).
--   max_stay      maximum nights of a stay arriving that night (OTA MaxLOS).
--   no_arrival    closed to arrival: no stay starts that night (OTA RestrictionStatus Master Arrival Close).
--   no_departure  closed to departure: no stay ends on the morning of that date, i.e. whose check-out
--                 day is this row's night (OTA RestrictionStatus Master Departure Close).
--   changed_at    when staff last changed the row at the desk (UTC, ISO); NULL while it is as the
--                 hotel file or the roll-forward wrote it. A re-import keeps such rows unless told to
--                 reset them (decision 155).

ALTER TABLE room_nights ADD COLUMN closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1));
ALTER TABLE room_nights ADD COLUMN min_stay INTEGER CHECK (min_stay IS NULL OR min_stay BETWEEN 1 AND 30);
ALTER TABLE room_nights ADD COLUMN max_stay INTEGER CHECK (max_stay IS NULL OR max_stay BETWEEN 1 AND 30);
ALTER TABLE room_nights ADD COLUMN no_arrival INTEGER NOT NULL DEFAULT 0 CHECK (no_arrival IN (0, 1));
ALTER TABLE room_nights ADD COLUMN no_departure INTEGER NOT NULL DEFAULT 0 CHECK (no_departure IN (0, 1));
ALTER TABLE room_nights ADD COLUMN changed_at TEXT;

ALTER TABLE plan_nights ADD COLUMN closed INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1));
ALTER TABLE plan_nights ADD COLUMN min_stay INTEGER CHECK (min_stay IS NULL OR min_stay BETWEEN 1 AND 30);
ALTER TABLE plan_nights ADD COLUMN max_stay INTEGER CHECK (max_stay IS NULL OR max_stay BETWEEN 1 AND 30);
ALTER TABLE plan_nights ADD COLUMN no_arrival INTEGER NOT NULL DEFAULT 0 CHECK (no_arrival IN (0, 1));
ALTER TABLE plan_nights ADD COLUMN no_departure INTEGER NOT NULL DEFAULT 0 CHECK (no_departure IN (0, 1));
ALTER TABLE plan_nights ADD COLUMN changed_at TEXT;

-- Rooms to sell can never go below rooms booked: room_nights_not_oversold (0001) already refuses it.
-- A min_stay above max_stay on one row is refused too.
CREATE TRIGGER room_nights_stay_range BEFORE UPDATE OF min_stay, max_stay ON room_nights
WHEN NEW.min_stay IS NOT NULL AND NEW.max_stay IS NOT NULL AND NEW.min_stay > NEW.max_stay
BEGIN SELECT RAISE(ABORT, 'min_stay_above_max_stay'); END;
CREATE TRIGGER plan_nights_stay_range BEFORE UPDATE OF min_stay, max_stay ON plan_nights
WHEN NEW.min_stay IS NOT NULL AND NEW.max_stay IS NOT NULL AND NEW.min_stay > NEW.max_stay
BEGIN SELECT RAISE(ABORT, 'min_stay_above_max_stay'); END;

-- The standing rules the daily roll-forward opens new nights from (the hotel file's weekday,
-- weekend and holiday prices, rooms and allotments; decision 155). Written by each import.
-- horizon_days: how far ahead the last sellable night always is (hotel's today + horizon_days - 1).
ALTER TABLE hotels ADD COLUMN horizon_days INTEGER NOT NULL DEFAULT 548 CHECK (horizon_days BETWEEN 1 AND 1100);
-- Nights priced at the weekend price, as a JSON array of weekdays (0 Sunday … 6 Saturday).
ALTER TABLE hotels ADD COLUMN weekend_nights TEXT NOT NULL DEFAULT '[5,6]' CHECK (json_valid(weekend_nights));
-- The last night the calendar has been opened to (NULL until the first import or roll-forward).
ALTER TABLE hotels ADD COLUMN opened_through TEXT;

CREATE TABLE hotel_holidays (
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  night TEXT NOT NULL,
  PRIMARY KEY (hotel_id, night)
) WITHOUT ROWID;

-- A plan's standing prices for one room class (hotel file rate_plans[].rooms[]).
CREATE TABLE plan_rates (
  rate_plan_id INTEGER NOT NULL REFERENCES rate_plans(id) ON DELETE CASCADE,
  room_class_id INTEGER NOT NULL REFERENCES room_classes(id) ON DELETE CASCADE,
  weekday INTEGER NOT NULL CHECK (weekday >= 0),
  weekend INTEGER NOT NULL CHECK (weekend >= 0),
  holiday INTEGER NOT NULL CHECK (holiday >= 0),
  -- Member price as a percent of the price; NULL: no member price.
  member_percent INTEGER CHECK (member_percent IS NULL OR member_percent BETWEEN 1 AND 100),
  allotment INTEGER CHECK (allotment IS NULL OR allotment >= 0),
  PRIMARY KEY (rate_plan_id, room_class_id)
) WITHOUT ROWID;
