-- Portico data model (spec §3). One database serves every hotel; every row hangs off a hotel.
-- Localised text is stored as a JSON object keyed by language ({"zh-TW": "…", "en-US": "…"});
-- the back end picks the request's language and falls back to the hotel's main language
-- (docs/decisions/004-localised-text-as-json.md). Money is integer TWD. Dates are hotel-local
-- 'YYYY-MM-DD' text; timestamps are ISO-8601 UTC text.

PRAGMA foreign_keys = ON;

CREATE TABLE hotels (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  domain TEXT NOT NULL UNIQUE COLLATE NOCASE,
  hotel_name TEXT NOT NULL CHECK (json_valid(hotel_name)),
  upper_name TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(upper_name)),
  template_code TEXT NOT NULL DEFAULT '',
  template_booking_code TEXT NOT NULL DEFAULT '',
  kind INTEGER NOT NULL DEFAULT 1 CHECK (kind BETWEEN 1 AND 17),
  origin_pms TEXT NOT NULL DEFAULT '',
  main_lang TEXT NOT NULL DEFAULT 'zh-TW',
  support_lang TEXT NOT NULL DEFAULT '["zh-TW"]' CHECK (json_valid(support_lang)),
  time_zone TEXT NOT NULL DEFAULT 'Asia/Taipei',
  status INTEGER NOT NULL DEFAULT 1,
  website_exist INTEGER NOT NULL DEFAULT 1 CHECK (website_exist IN (0, 1)),
  booking_close INTEGER NOT NULL DEFAULT 0 CHECK (booking_close IN (0, 1)),
  booking_validate INTEGER NOT NULL DEFAULT 0 CHECK (booking_validate IN (0, 1)),
  close_member_system INTEGER NOT NULL DEFAULT 0 CHECK (close_member_system IN (0, 1)),
  business_status INTEGER NOT NULL DEFAULT 0,
  deposit_type TEXT NOT NULL DEFAULT 'all' CHECK (deposit_type IN ('all', 'deposit')),
  deposit_percent INTEGER NOT NULL DEFAULT 100 CHECK (deposit_percent BETWEEN 0 AND 100),
  payment_list TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(payment_list)),
  member_discount_percent INTEGER NOT NULL DEFAULT 80 CHECK (member_discount_percent BETWEEN 1 AND 100),
  member_discount_start TEXT,
  member_discount_end TEXT,
  support_client_cancel INTEGER NOT NULL DEFAULT 1 CHECK (support_client_cancel IN (0, 1)),
  google_map_open_way INTEGER NOT NULL DEFAULT 0 CHECK (google_map_open_way IN (0, 1)),
  google_store_name TEXT NOT NULL DEFAULT '',
  ga_code TEXT NOT NULL DEFAULT '',
  pixel_code TEXT NOT NULL DEFAULT '',
  online_support TEXT NOT NULL DEFAULT '',
  address TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(address)),
  latitude REAL,
  longitude REAL,
  email TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  phone2 TEXT NOT NULL DEFAULT '',
  fax TEXT NOT NULL DEFAULT '',
  fb TEXT NOT NULL DEFAULT '',
  line TEXT NOT NULL DEFAULT '',
  instagram TEXT NOT NULL DEFAULT '',
  about_images TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(about_images)),
  about_us_path TEXT NOT NULL DEFAULT '',
  introduction TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(introduction)),
  seo_title TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(seo_title)),
  seo_content TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(seo_content)),
  icon_main TEXT NOT NULL DEFAULT '',
  logo_dark TEXT NOT NULL DEFAULT '',
  logo_white TEXT NOT NULL DEFAULT '',
  -- [{image:{src,width,height}, title:{lang:…}, subtitle:{lang:…}, link, alt:{lang:…}}]
  banners TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(banners)),
  custom_block TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(custom_block)),
  location_block TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(location_block)),
  official_booking TEXT NOT NULL DEFAULT '',
  checkin_start_time TEXT NOT NULL DEFAULT '15:00',
  checkin_end_time TEXT NOT NULL DEFAULT '23:00',
  checkout_time TEXT NOT NULL DEFAULT '11:00',
  refund_template_id INTEGER NOT NULL DEFAULT 2 CHECK (refund_template_id BETWEEN 0 AND 3),
  customer_notice TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(customer_notice)),
  booking_policy TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(booking_policy)),
  cancel_policy TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(cancel_policy)),
  registration_name TEXT NOT NULL DEFAULT '',
  business_registration TEXT NOT NULL DEFAULT '',
  unified_business_number TEXT NOT NULL DEFAULT '',
  support_facilities TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(support_facilities)),
  thsr_support_on INTEGER NOT NULL DEFAULT -1 CHECK (thsr_support_on IN (1, -1)),
  agent_name TEXT NOT NULL DEFAULT '',
  remittance_notice TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(remittance_notice)),
  -- {account_name, account_number, bank, branch, country}
  remittance_info TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(remittance_info)),
  dining_options TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(dining_options)),
  template_images TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(template_images)),
  tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags)),
  -- {master}/hotels/preferences answer, kept as given by the operator.
  preferences TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(preferences)),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE menu_items (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  menu_code TEXT NOT NULL DEFAULT 'main',
  position INTEGER NOT NULL,
  -- kept as text so that an item the site cannot parse still reaches it (spec §8).
  item_type TEXT NOT NULL,
  label TEXT NOT NULL DEFAULT '{}',
  url TEXT NOT NULL DEFAULT '',
  new_tab INTEGER NOT NULL DEFAULT 0 CHECK (new_tab IN (0, 1)),
  UNIQUE (hotel_id, menu_code, position)
);

CREATE TABLE room_classes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  room_code TEXT NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  name TEXT NOT NULL CHECK (json_valid(name)),
  introduction TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(introduction)),
  show_price INTEGER NOT NULL DEFAULT 0 CHECK (show_price >= 0),
  people INTEGER NOT NULL CHECK (people >= 1),
  children INTEGER NOT NULL DEFAULT 0 CHECK (children >= 0),
  square_meters REAL,
  -- [{bed, count}]
  beds TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(beds)),
  -- {window:[…], balcony:[…], smoking:[…], bathroom:[…], bathroom_devices:[…], recreation:[…],
  --  catering:[…], clothing:[…], safety:[…]}
  facilities TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(facilities)),
  photos TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(photos)),
  symbol_tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(symbol_tags)),
  memo_tags TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(memo_tags)),
  total_rooms INTEGER NOT NULL CHECK (total_rooms >= 0),
  UNIQUE (hotel_id, room_code)
);
CREATE INDEX room_classes_hotel ON room_classes (hotel_id, position);

CREATE TABLE rate_plans (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  rate_plan_code TEXT NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  name TEXT NOT NULL CHECK (json_valid(name)),
  introduction TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(introduction)),
  -- 0 non-refundable; 1, 2, 3: free cancellation until 3, 7, 14 days before check-in (spec §5).
  refund_template_id INTEGER NOT NULL DEFAULT 2 CHECK (refund_template_id BETWEEN 0 AND 3),
  allow_coupon INTEGER NOT NULL DEFAULT 1 CHECK (allow_coupon IN (0, 1)),
  allow_member_price INTEGER NOT NULL DEFAULT 1 CHECK (allow_member_price IN (0, 1)),
  contain_meals INTEGER NOT NULL DEFAULT 0 CHECK (contain_meals IN (0, 1)),
  support_entire_rent INTEGER NOT NULL DEFAULT 0 CHECK (support_entire_rent IN (0, 1)),
  open_check_in_date TEXT,
  close_check_in_date TEXT,
  promo_type TEXT NOT NULL DEFAULT '',
  -- minimum number of nights
  days INTEGER NOT NULL DEFAULT 1 CHECK (days >= 1),
  -- shown among the special rate plans (rateplan_info) of spec §3
  is_special INTEGER NOT NULL DEFAULT 0 CHECK (is_special IN (0, 1)),
  -- [{name:{lang:…}, number, unit:{lang:…}}]
  details TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(details)),
  adds_list TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(adds_list)),
  UNIQUE (hotel_id, rate_plan_code)
);

-- The room classes a plan is sold for (target_rooms).
CREATE TABLE rate_plan_rooms (
  rate_plan_id INTEGER NOT NULL REFERENCES rate_plans(id) ON DELETE CASCADE,
  room_class_id INTEGER NOT NULL REFERENCES room_classes(id) ON DELETE CASCADE,
  PRIMARY KEY (rate_plan_id, room_class_id)
);

-- Inventory: one row per room class per night. `capacity` is what the site may sell that night;
-- `booked` is raised and lowered only through order_nights (triggers below), and the database
-- refuses to let it pass capacity, so two concurrent orders can never oversell.
CREATE TABLE room_nights (
  room_class_id INTEGER NOT NULL REFERENCES room_classes(id) ON DELETE CASCADE,
  night TEXT NOT NULL,
  capacity INTEGER NOT NULL CHECK (capacity >= 0),
  booked INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (room_class_id, night),
  CONSTRAINT room_nights_not_oversold CHECK (booked >= 0 AND booked <= capacity)
) WITHOUT ROWID;

-- Price of a plan for a room class on a night; `allotment` optionally caps how many rooms this
-- plan may sell that night ("Plan sold out" when reached).
CREATE TABLE plan_nights (
  rate_plan_id INTEGER NOT NULL REFERENCES rate_plans(id) ON DELETE CASCADE,
  room_class_id INTEGER NOT NULL REFERENCES room_classes(id) ON DELETE CASCADE,
  night TEXT NOT NULL,
  price INTEGER NOT NULL CHECK (price >= 0),
  member_price INTEGER CHECK (member_price IS NULL OR member_price >= 0),
  allotment INTEGER CHECK (allotment IS NULL OR allotment >= 0),
  sold INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (rate_plan_id, room_class_id, night),
  CONSTRAINT plan_nights_not_oversold CHECK (sold >= 0 AND (allotment IS NULL OR sold <= allotment))
) WITHOUT ROWID;
CREATE INDEX plan_nights_by_room ON plan_nights (room_class_id, night);

CREATE TABLE promotion_types (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  topic_key TEXT NOT NULL,
  topic_detail TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(topic_detail)),
  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
  UNIQUE (hotel_id, topic_key)
);

-- Promotions, announcements (news) and attractions share the fields of spec §3.
CREATE TABLE promotions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  category TEXT NOT NULL CHECK (category IN ('promotion', 'announcement', 'attraction')),
  promotion_key TEXT NOT NULL,
  promotion_type_id INTEGER REFERENCES promotion_types(id) ON DELETE SET NULL,
  title TEXT NOT NULL CHECK (json_valid(title)),
  sub_title TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(sub_title)),
  main_image TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(main_image)),
  sub_image TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(sub_image)),
  detail_foreword TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(detail_foreword)),
  detail_info TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(detail_info)),
  begin_date TEXT,
  end_date TEXT,
  public_at TEXT NOT NULL,
  checkin_begin TEXT,
  checkin_end TEXT,
  support_room_type TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(support_room_type)),
  show_in_index INTEGER NOT NULL DEFAULT 1 CHECK (show_in_index IN (0, 1)),
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  priority INTEGER NOT NULL DEFAULT 0,
  banner_info TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(banner_info)),
  UNIQUE (hotel_id, category, promotion_key)
);
CREATE INDEX promotions_active ON promotions (hotel_id, category, active, public_at);

CREATE TABLE facilities (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  facilities_key TEXT NOT NULL,
  title TEXT NOT NULL CHECK (json_valid(title)),
  index_introduction TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(index_introduction)),
  introduction TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(introduction)),
  floor TEXT NOT NULL DEFAULT '',
  main_image TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(main_image)),
  pictures TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(pictures)),
  priority INTEGER NOT NULL DEFAULT 0,
  UNIQUE (hotel_id, facilities_key)
);

CREATE TABLE coupons (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  code TEXT NOT NULL COLLATE NOCASE,
  name TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(name)),
  type TEXT NOT NULL DEFAULT 'percent' CHECK (type IN ('percent', 'amount')),
  -- percent: the share of the price paid after the coupon is deducted is (100 - percent)
  percent INTEGER NOT NULL DEFAULT 0 CHECK (percent BETWEEN 0 AND 100),
  discount INTEGER NOT NULL DEFAULT 0 CHECK (discount >= 0),
  verify INTEGER NOT NULL DEFAULT 0 CHECK (verify IN (0, 1)),
  card_number_length INTEGER NOT NULL DEFAULT 0 CHECK (card_number_length >= 0),
  valid_from TEXT,
  valid_to TEXT,
  min_amount INTEGER NOT NULL DEFAULT 0 CHECK (min_amount >= 0),
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  UNIQUE (hotel_id, code)
);

CREATE TABLE members (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  email TEXT NOT NULL COLLATE NOCASE,
  first_name TEXT NOT NULL DEFAULT '',
  last_name TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  points INTEGER NOT NULL DEFAULT 0 CONSTRAINT members_points_not_negative CHECK (points >= 0),
  -- PBKDF2-SHA256 "iterations$salt$hash" (base64); empty for members who only sign in through OAuth.
  password_hash TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (hotel_id, email)
);

-- Opaque member tokens (mem_token) issued by the account service of the built-in back end.
CREATE TABLE member_tokens (
  token_hash TEXT PRIMARY KEY,
  member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL
);

CREATE TABLE orders (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  order_doc TEXT NOT NULL UNIQUE,
  idempotency_key TEXT NOT NULL,
  -- SHA-256 of the request body, to tell a retry from a different order sent under the same key.
  request_hash TEXT NOT NULL,
  member_id INTEGER REFERENCES members(id),
  lang TEXT NOT NULL DEFAULT 'zh-TW',
  booker_first_name TEXT NOT NULL DEFAULT '',
  booker_last_name TEXT NOT NULL DEFAULT '',
  booker_name TEXT NOT NULL,
  booker_phone TEXT NOT NULL,
  booker_email TEXT NOT NULL,
  booking_from TEXT NOT NULL DEFAULT 'HXA',
  check_in_day TEXT NOT NULL,
  check_out_day TEXT NOT NULL CHECK (check_out_day > check_in_day),
  adults_count INTEGER NOT NULL DEFAULT 0 CHECK (adults_count >= 0),
  children_count INTEGER NOT NULL DEFAULT 0 CHECK (children_count >= 0),
  pay_way TEXT NOT NULL DEFAULT 'credit',
  payment_vendor INTEGER NOT NULL DEFAULT 1,
  pay_option TEXT NOT NULL DEFAULT 'all' CHECK (pay_option IN ('all', 'part')),
  memo TEXT NOT NULL DEFAULT '',
  company_reg_number TEXT NOT NULL DEFAULT '',
  company_name TEXT NOT NULL DEFAULT '',
  coupon_code TEXT NOT NULL DEFAULT '',
  coupon_discount INTEGER NOT NULL DEFAULT 0 CHECK (coupon_discount >= 0),
  point_used INTEGER NOT NULL DEFAULT 0 CHECK (point_used >= 0),
  room_price INTEGER NOT NULL CHECK (room_price >= 0),
  promotion_discount INTEGER NOT NULL DEFAULT 0 CHECK (promotion_discount >= 0),
  attachment_amount INTEGER NOT NULL DEFAULT 0 CHECK (attachment_amount >= 0),
  total_price INTEGER NOT NULL CHECK (total_price >= 0),
  pay_amount INTEGER NOT NULL CHECK (pay_amount >= 0),
  deposit_amount INTEGER NOT NULL DEFAULT 0 CHECK (deposit_amount >= 0),
  paid_amount INTEGER NOT NULL DEFAULT 0 CHECK (paid_amount >= 0),
  -- spec §4: -1 unpaid, 1 paid in part, 2 paid in full
  payment_status INTEGER NOT NULL DEFAULT -1 CHECK (payment_status IN (-1, 1, 2)),
  -- docs/decisions/005-order-status.md
  status TEXT NOT NULL DEFAULT 'pending_payment'
    CHECK (status IN ('pending_payment', 'confirmed', 'cancel_requested', 'cancelled')),
  support_client_cancel INTEGER NOT NULL DEFAULT 1 CHECK (support_client_cancel IN (0, 1)),
  room_attachment_detail TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(room_attachment_detail)),
  rail_item_list TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(rail_item_list)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (hotel_id, idempotency_key)
);
CREATE INDEX orders_by_member ON orders (hotel_id, member_id, created_at);
CREATE INDEX orders_by_email ON orders (hotel_id, booker_email);

CREATE TABLE order_lines (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  room_class_id INTEGER NOT NULL REFERENCES room_classes(id),
  rate_plan_id INTEGER NOT NULL REFERENCES rate_plans(id),
  num INTEGER NOT NULL CHECK (num >= 1),
  memo TEXT NOT NULL DEFAULT '',
  occupant_name TEXT NOT NULL DEFAULT '',
  occupant_phone TEXT NOT NULL DEFAULT '',
  occupant_email TEXT NOT NULL DEFAULT '',
  -- whole stay, all rooms of the line
  amount INTEGER NOT NULL CHECK (amount >= 0),
  member_price_applied INTEGER NOT NULL DEFAULT 0 CHECK (member_price_applied IN (0, 1)),
  UNIQUE (order_id, position)
);

-- The rooms an order holds, night by night. Inserting a row takes the rooms; deleting it (on
-- cancellation) gives them back. The triggers keep room_nights.booked and plan_nights.sold in
-- step inside the same statement, so the CHECK constraints above refuse an oversell atomically.
CREATE TABLE order_nights (
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  line_position INTEGER NOT NULL,
  room_class_id INTEGER NOT NULL,
  rate_plan_id INTEGER NOT NULL,
  night TEXT NOT NULL,
  rooms INTEGER NOT NULL CHECK (rooms >= 1),
  price INTEGER NOT NULL CHECK (price >= 0),
  PRIMARY KEY (order_id, line_position, night)
) WITHOUT ROWID;

CREATE TRIGGER order_nights_take AFTER INSERT ON order_nights
BEGIN
  SELECT RAISE(ABORT, 'no_inventory')
  WHERE NOT EXISTS (
    SELECT 1 FROM room_nights WHERE room_class_id = NEW.room_class_id AND night = NEW.night
  );
  SELECT RAISE(ABORT, 'no_plan_price')
  WHERE NOT EXISTS (
    SELECT 1 FROM plan_nights
    WHERE rate_plan_id = NEW.rate_plan_id AND room_class_id = NEW.room_class_id AND night = NEW.night
  );
  UPDATE room_nights SET booked = booked + NEW.rooms
  WHERE room_class_id = NEW.room_class_id AND night = NEW.night;
  UPDATE plan_nights SET sold = sold + NEW.rooms
  WHERE rate_plan_id = NEW.rate_plan_id AND room_class_id = NEW.room_class_id AND night = NEW.night;
END;

CREATE TRIGGER order_nights_release AFTER DELETE ON order_nights
BEGIN
  UPDATE room_nights SET booked = booked - OLD.rooms
  WHERE room_class_id = OLD.room_class_id AND night = OLD.night;
  UPDATE plan_nights SET sold = sold - OLD.rooms
  WHERE rate_plan_id = OLD.rate_plan_id AND room_class_id = OLD.room_class_id AND night = OLD.night;
END;

CREATE TABLE payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  vendor_id INTEGER NOT NULL,
  amount INTEGER NOT NULL CHECK (amount >= 0),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'failed', 'refunded')),
  trade_no TEXT NOT NULL DEFAULT '',
  raw TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(raw)),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (vendor_id, trade_no)
);

CREATE TABLE cancellations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id INTEGER NOT NULL UNIQUE REFERENCES orders(id),
  via TEXT NOT NULL CHECK (via IN ('member', 'hash', 'hotel')),
  reason TEXT NOT NULL DEFAULT '',
  fee INTEGER NOT NULL DEFAULT 0 CHECK (fee >= 0),
  refund INTEGER NOT NULL DEFAULT 0 CHECK (refund >= 0),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Points moved by orders: spent on booking, returned on cancellation.
CREATE TABLE point_ledger (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  order_id INTEGER REFERENCES orders(id),
  delta INTEGER NOT NULL,
  reason TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
