-- Versions of what a hotel's public pages show, so edge caches can be keyed on them
-- (docs/decisions/026). `content_version` is bumped by every hotel import (the last statement of
-- the import's SQL): hotel info, menus, rooms, plans, prices, promotions, news, facilities.
-- `stock_version` is bumped whenever a booking takes or releases rooms (the "from" prices of the
-- home and room pages read the calendar, which a sold-out night changes).
ALTER TABLE hotels ADD COLUMN content_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hotels ADD COLUMN stock_version INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER room_nights_stock_version AFTER UPDATE OF booked ON room_nights
BEGIN
  UPDATE hotels SET stock_version = stock_version + 1
  WHERE id = (SELECT hotel_id FROM room_classes WHERE id = NEW.room_class_id);
END;

CREATE TRIGGER plan_nights_stock_version AFTER UPDATE OF sold ON plan_nights
BEGIN
  UPDATE hotels SET stock_version = stock_version + 1
  WHERE id = (SELECT hotel_id FROM room_classes WHERE id = NEW.room_class_id);
END;
