-- An entire-site rental and the site's other units exclude each other night by night
-- (docs/decisions/023). Like room_nights (decision 005), the guarantee is a CHECK constraint kept
-- by triggers on order_nights, so two concurrent orders can never sell the same site twice.

-- Whether the night was taken by an entire-rent plan, fixed when the rooms are taken: a later
-- import that changes the plan's support_entire_rent does not change what the order holds.
ALTER TABLE order_nights ADD COLUMN whole_site INTEGER NOT NULL DEFAULT 0 CHECK (whole_site IN (0, 1));

UPDATE order_nights SET whole_site = 1
WHERE rate_plan_id IN (SELECT id FROM rate_plans WHERE support_entire_rent = 1);

-- Per hotel and night: the rooms held by entire-rent plans and the rooms held by any other plan.
-- At most one entire rental a night, and never together with any other room.
CREATE TABLE site_nights (
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  night TEXT NOT NULL,
  entire_rooms INTEGER NOT NULL DEFAULT 0,
  unit_rooms INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (hotel_id, night),
  CONSTRAINT site_nights_entire_rent_exclusive
    CHECK (entire_rooms >= 0 AND unit_rooms >= 0 AND entire_rooms <= 1 AND (entire_rooms = 0 OR unit_rooms = 0))
) WITHOUT ROWID;

INSERT INTO site_nights (hotel_id, night, entire_rooms, unit_rooms)
SELECT rc.hotel_id, onn.night,
       SUM(CASE WHEN onn.whole_site = 1 THEN onn.rooms ELSE 0 END),
       SUM(CASE WHEN onn.whole_site = 1 THEN 0 ELSE onn.rooms END)
FROM order_nights onn JOIN room_classes rc ON rc.id = onn.room_class_id
GROUP BY rc.hotel_id, onn.night;

CREATE TRIGGER order_nights_site_take AFTER INSERT ON order_nights
BEGIN
  -- The row must say what its plan is: the order code copies it from rate_plans in the same statement.
  SELECT RAISE(ABORT, 'whole_site_mismatch')
  WHERE NEW.whole_site != (SELECT support_entire_rent FROM rate_plans WHERE id = NEW.rate_plan_id);
  INSERT INTO site_nights (hotel_id, night, entire_rooms, unit_rooms)
  SELECT rc.hotel_id, NEW.night, NEW.rooms * NEW.whole_site, NEW.rooms * (1 - NEW.whole_site)
  FROM room_classes rc WHERE rc.id = NEW.room_class_id
  ON CONFLICT (hotel_id, night) DO UPDATE SET
    entire_rooms = entire_rooms + excluded.entire_rooms,
    unit_rooms = unit_rooms + excluded.unit_rooms;
END;

CREATE TRIGGER order_nights_site_release AFTER DELETE ON order_nights
BEGIN
  UPDATE site_nights SET
    entire_rooms = entire_rooms - OLD.rooms * OLD.whole_site,
    unit_rooms = unit_rooms - OLD.rooms * (1 - OLD.whole_site)
  WHERE hotel_id = (SELECT hotel_id FROM room_classes WHERE id = OLD.room_class_id) AND night = OLD.night;
END;
