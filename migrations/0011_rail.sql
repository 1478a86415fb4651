-- High-speed rail tickets booked with the room (issue 27, decisions 119-120). THSR's stations,
-- timetable and fares (loaded from TDX's JSON by `npm run rail:import`), the seats each hotel holds
-- per train and day (its allotment from an agent), and the tickets of orders. Like room_nights
-- (decision 005), an allotment's seats are a CHECK constraint kept by triggers, so two concurrent
-- orders can never take its last seat twice.

-- THSR's 12 stations, north to south (TDX Station: StationID, StationCode; names in five languages).
CREATE TABLE rail_stations (
  station_id TEXT PRIMARY KEY,
  code TEXT NOT NULL,
  position INTEGER NOT NULL,
  name TEXT NOT NULL CHECK (json_valid(name))
) WITHOUT ROWID;

INSERT INTO rail_stations (station_id, code, position, name) VALUES
  ('0990', 'NAG', 1, '{"zh-TW":"南港","zh-CN":"南港","en-US":"Nangang","ja-JP":"南港","ko-KR":"난강"}'),
  ('1000', 'TPE', 2, '{"zh-TW":"台北","zh-CN":"台北","en-US":"Taipei","ja-JP":"台北","ko-KR":"타이베이"}'),
  ('1010', 'BAC', 3, '{"zh-TW":"板橋","zh-CN":"板桥","en-US":"Banqiao","ja-JP":"板橋","ko-KR":"반차오"}'),
  ('1020', 'TAY', 4, '{"zh-TW":"桃園","zh-CN":"桃园","en-US":"Taoyuan","ja-JP":"桃園","ko-KR":"타오위안"}'),
  ('1030', 'HSC', 5, '{"zh-TW":"新竹","zh-CN":"新竹","en-US":"Hsinchu","ja-JP":"新竹","ko-KR":"신주"}'),
  ('1035', 'MIL', 6, '{"zh-TW":"苗栗","zh-CN":"苗栗","en-US":"Miaoli","ja-JP":"苗栗","ko-KR":"먀오리"}'),
  ('1040', 'TAC', 7, '{"zh-TW":"台中","zh-CN":"台中","en-US":"Taichung","ja-JP":"台中","ko-KR":"타이중"}'),
  ('1043', 'CHA', 8, '{"zh-TW":"彰化","zh-CN":"彰化","en-US":"Changhua","ja-JP":"彰化","ko-KR":"장화"}'),
  ('1047', 'YUL', 9, '{"zh-TW":"雲林","zh-CN":"云林","en-US":"Yunlin","ja-JP":"雲林","ko-KR":"윈린"}'),
  ('1050', 'CHY', 10, '{"zh-TW":"嘉義","zh-CN":"嘉义","en-US":"Chiayi","ja-JP":"嘉義","ko-KR":"자이"}'),
  ('1060', 'TNN', 11, '{"zh-TW":"台南","zh-CN":"台南","en-US":"Tainan","ja-JP":"台南","ko-KR":"타이난"}'),
  ('1070', 'ZUY', 12, '{"zh-TW":"左營","zh-CN":"左营","en-US":"Zuoying","ja-JP":"左営","ko-KR":"쭤잉"}');

-- The general timetable (TDX GeneralTimetable): a train, its direction (0 southbound, 1 northbound)
-- and the days it runs, Monday first ("1111100": weekdays).
CREATE TABLE rail_trains (
  train_no TEXT PRIMARY KEY,
  direction INTEGER NOT NULL CHECK (direction IN (0, 1)),
  service_days TEXT NOT NULL CHECK (length(service_days) = 7 AND service_days NOT GLOB '*[^01]*'),
  effective_date TEXT,
  expiring_date TEXT
) WITHOUT ROWID;

-- Where a train stops, with its times (HH:MM, Taiwan).
CREATE TABLE rail_stops (
  train_no TEXT NOT NULL REFERENCES rail_trains(train_no) ON DELETE CASCADE,
  stop_sequence INTEGER NOT NULL,
  station_id TEXT NOT NULL REFERENCES rail_stations(station_id),
  arrival_time TEXT NOT NULL,
  departure_time TEXT NOT NULL,
  PRIMARY KEY (train_no, station_id)
) WITHOUT ROWID;

-- One ticket's fare between two stations (TDX ODFare: one way, standard car) by fare type.
CREATE TABLE rail_fares (
  origin_id TEXT NOT NULL REFERENCES rail_stations(station_id),
  destination_id TEXT NOT NULL REFERENCES rail_stations(station_id),
  fare_type TEXT NOT NULL CHECK (fare_type IN ('adult', 'child', 'senior', 'disabled')),
  price INTEGER NOT NULL CHECK (price >= 0),
  PRIMARY KEY (origin_id, destination_id, fare_type)
) WITHOUT ROWID;

-- The hotel's rail settings (hotel file): its station, the seats it holds on every train and day
-- unless rail_allotments says otherwise, and the refund fee per ticket (THSR: NT$20).
ALTER TABLE hotels ADD COLUMN thsr_station_id TEXT;
ALTER TABLE hotels ADD COLUMN thsr_seats_per_train INTEGER NOT NULL DEFAULT 0 CHECK (thsr_seats_per_train >= 0);
ALTER TABLE hotels ADD COLUMN thsr_refund_fee INTEGER NOT NULL DEFAULT 20 CHECK (thsr_refund_fee >= 0);

-- Seats a hotel holds on a train on a day. A row is made from thsr_seats_per_train the first time
-- the train and day are booked (or written by the agent's system); `taken` moves only through the
-- triggers on rail_reservations.
CREATE TABLE rail_allotments (
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  train_no TEXT NOT NULL,
  day TEXT NOT NULL,
  seats INTEGER NOT NULL CHECK (seats >= 0),
  taken INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (hotel_id, train_no, day),
  CONSTRAINT rail_allotments_not_oversold CHECK (taken >= 0 AND taken <= seats)
) WITHOUT ROWID;

-- The tickets of an order, one row per line (a direction). reserved -> booked (PNR) -> refunded;
-- reserved -> released. Seats are held while reserved or booked.
CREATE TABLE rail_reservations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  provider TEXT NOT NULL DEFAULT 'allotment',
  direction TEXT NOT NULL CHECK (direction IN ('outbound', 'return')),
  day TEXT NOT NULL,
  train_no TEXT NOT NULL,
  origin_id TEXT NOT NULL,
  destination_id TEXT NOT NULL,
  departure_time TEXT NOT NULL,
  arrival_time TEXT NOT NULL,
  adult INTEGER NOT NULL DEFAULT 0 CHECK (adult >= 0),
  child INTEGER NOT NULL DEFAULT 0 CHECK (child >= 0),
  senior INTEGER NOT NULL DEFAULT 0 CHECK (senior >= 0),
  disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled >= 0),
  seats INTEGER NOT NULL CHECK (seats >= 1 AND seats = adult + child + senior + disabled),
  fares TEXT NOT NULL CHECK (json_valid(fares)),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  status TEXT NOT NULL DEFAULT 'reserved' CHECK (status IN ('reserved', 'booked', 'refunded', 'released')),
  pnr TEXT,
  booking_number TEXT,
  refund_fee INTEGER NOT NULL DEFAULT 0 CHECK (refund_fee >= 0),
  refund_amount INTEGER NOT NULL DEFAULT 0 CHECK (refund_amount >= 0),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX rail_reservations_by_order ON rail_reservations (order_id);

-- What the order's tickets cost (in total_price and pay_amount).
ALTER TABLE orders ADD COLUMN rail_amount INTEGER NOT NULL DEFAULT 0 CHECK (rail_amount >= 0);

CREATE TRIGGER rail_reservations_take AFTER INSERT ON rail_reservations
WHEN NEW.status IN ('reserved', 'booked')
BEGIN
  SELECT RAISE(ABORT, 'no_rail_allotment')
  WHERE NOT EXISTS (SELECT 1 FROM rail_allotments WHERE hotel_id = NEW.hotel_id AND train_no = NEW.train_no AND day = NEW.day);
  UPDATE rail_allotments SET taken = taken + NEW.seats
  WHERE hotel_id = NEW.hotel_id AND train_no = NEW.train_no AND day = NEW.day;
END;

-- Refunded or released: the seats come back.
CREATE TRIGGER rail_reservations_give_back AFTER UPDATE OF status ON rail_reservations
WHEN NEW.status IN ('refunded', 'released') AND OLD.status IN ('reserved', 'booked')
BEGIN
  UPDATE rail_allotments SET taken = taken - OLD.seats
  WHERE hotel_id = OLD.hotel_id AND train_no = OLD.train_no AND day = OLD.day;
END;

-- Another train or day, or other passengers, for a line that holds seats: the old seats back, the new taken.
CREATE TRIGGER rail_reservations_move AFTER UPDATE OF train_no, day, seats ON rail_reservations
WHEN OLD.status IN ('reserved', 'booked') AND NEW.status = OLD.status
BEGIN
  UPDATE rail_allotments SET taken = taken - OLD.seats
  WHERE hotel_id = OLD.hotel_id AND train_no = OLD.train_no AND day = OLD.day;
  SELECT RAISE(ABORT, 'no_rail_allotment')
  WHERE NOT EXISTS (SELECT 1 FROM rail_allotments WHERE hotel_id = NEW.hotel_id AND train_no = NEW.train_no AND day = NEW.day);
  UPDATE rail_allotments SET taken = taken + NEW.seats
  WHERE hotel_id = NEW.hotel_id AND train_no = NEW.train_no AND day = NEW.day;
END;

-- Paid: the reserved tickets are issued (built-in allotment provider: a PNR of 8 digits and a booking
-- number), in the same statement that records the money, whatever gateway brought it.
CREATE TRIGGER orders_paid_book_rail AFTER UPDATE OF paid_amount ON orders
WHEN NEW.paid_amount > OLD.paid_amount AND NEW.status != 'cancelled'
BEGIN
  UPDATE rail_reservations
  SET status = 'booked',
      pnr = printf('%08d', abs(random()) % 100000000),
      booking_number = 'TH' || upper(hex(randomblob(5))),
      updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  WHERE order_id = NEW.id AND status = 'reserved' AND provider = 'allotment';
END;

-- Every way an order is cancelled ends in this status change (decision 116): reserved tickets are
-- released; booked tickets whose train has not left are refunded less the hotel's fee per ticket.
CREATE TRIGGER orders_cancelled_release_rail AFTER UPDATE OF status ON orders
WHEN NEW.status = 'cancelled' AND OLD.status != 'cancelled'
BEGIN
  UPDATE rail_reservations SET status = 'released', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  WHERE order_id = NEW.id AND status = 'reserved';
  UPDATE rail_reservations
  SET status = 'refunded',
      refund_fee = min(amount, seats * (SELECT thsr_refund_fee FROM hotels WHERE id = NEW.hotel_id)),
      refund_amount = amount - min(amount, seats * (SELECT thsr_refund_fee FROM hotels WHERE id = NEW.hotel_id)),
      updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  WHERE order_id = NEW.id AND status = 'booked'
    AND datetime(day || ' ' || departure_time, '-8 hours') > datetime('now');
END;
