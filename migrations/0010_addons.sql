-- Add-on items booked with the room (issue 27, decisions 115-117). Like room_nights (decision 005),
-- a limited item's inventory is a CHECK constraint kept by triggers on order_addon_days, so two
-- concurrent orders can never take its last unit twice.

-- The items a hotel file declares. Items no longer in the file stay (orders name them) but inactive.
CREATE TABLE addons (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  addon_code TEXT NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  name TEXT NOT NULL CHECK (json_valid(name)),
  description TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(description)),
  photo TEXT NOT NULL DEFAULT '',
  -- how it counts (app/domain/addons.ts)
  unit TEXT NOT NULL CHECK (unit IN ('stay', 'night', 'person', 'person_night')),
  price INTEGER NOT NULL CHECK (price >= 0),
  child_price INTEGER CHECK (child_price IS NULL OR child_price >= 0),
  max_per_booking INTEGER NOT NULL CHECK (max_per_booking >= 1),
  -- 1: sold only from addon_days; 0: unlimited
  limited INTEGER NOT NULL DEFAULT 0 CHECK (limited IN (0, 1)),
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  UNIQUE (hotel_id, addon_code)
);

-- The plans that offer an item (a plan's adds_list).
CREATE TABLE addon_plans (
  addon_id INTEGER NOT NULL REFERENCES addons(id) ON DELETE CASCADE,
  rate_plan_id INTEGER NOT NULL REFERENCES rate_plans(id) ON DELETE CASCADE,
  PRIMARY KEY (addon_id, rate_plan_id)
) WITHOUT ROWID;

-- A limited item's inventory, one row per day; `taken` moves only through order_addon_days.
CREATE TABLE addon_days (
  addon_id INTEGER NOT NULL REFERENCES addons(id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  capacity INTEGER NOT NULL CHECK (capacity >= 0),
  taken INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (addon_id, day),
  CONSTRAINT addon_days_not_oversold CHECK (taken >= 0 AND taken <= capacity)
) WITHOUT ROWID;

-- What an order holds of a limited item, day by day. Inserting takes it; deleting gives it back.
CREATE TABLE order_addon_days (
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  addon_id INTEGER NOT NULL,
  day TEXT NOT NULL,
  units INTEGER NOT NULL CHECK (units >= 1),
  PRIMARY KEY (order_id, addon_id, day)
) WITHOUT ROWID;

CREATE TRIGGER order_addon_days_take AFTER INSERT ON order_addon_days
BEGIN
  SELECT RAISE(ABORT, 'no_addon_inventory')
  WHERE NOT EXISTS (SELECT 1 FROM addon_days WHERE addon_id = NEW.addon_id AND day = NEW.day);
  UPDATE addon_days SET taken = taken + NEW.units WHERE addon_id = NEW.addon_id AND day = NEW.day;
END;

CREATE TRIGGER order_addon_days_release AFTER DELETE ON order_addon_days
BEGIN
  UPDATE addon_days SET taken = taken - OLD.units WHERE addon_id = OLD.addon_id AND day = OLD.day;
END;

-- Every way an order is cancelled (the guest, the signed link, the unpaid expiry) ends in this
-- status change: it gives the order's add-ons back in the same statement (decision 116).
CREATE TRIGGER orders_cancelled_release_addons AFTER UPDATE OF status ON orders
WHEN NEW.status = 'cancelled' AND OLD.status != 'cancelled'
BEGIN
  DELETE FROM order_addon_days WHERE order_id = NEW.id;
END;
