-- Payments (docs/decisions/031-034): the hotel's gateways and unpaid deadlines, each order's payment
-- deadline and the guest's address (unpaid-order limit), one row per payment attempt, and a log of
-- every callback refused or ignored.

-- Vendor → protocol, merchant id and the NAMES of the Worker secrets with its keys (never the keys).
ALTER TABLE hotels ADD COLUMN payment_gateways TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(payment_gateways));
ALTER TABLE hotels ADD COLUMN payment_deadlines TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(payment_deadlines));

-- When an unpaid order stops holding its rooms (ISO instant, UTC); NULL: nothing due before arrival.
ALTER TABLE orders ADD COLUMN pay_deadline TEXT;
ALTER TABLE orders ADD COLUMN client_ip TEXT NOT NULL DEFAULT '';
CREATE INDEX orders_unpaid_by_deadline ON orders (pay_deadline) WHERE status = 'pending_payment' AND payment_status = -1;

-- Nothing wrote payments before this migration; it is rebuilt with what an attempt needs.
DROP TABLE payments;
CREATE TABLE payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  vendor_id INTEGER NOT NULL,
  provider TEXT NOT NULL,
  -- Our trade number (ECPay MerchantTradeNo, NewebPay MerchantOrderNo, LINE Pay orderId).
  trade_no TEXT NOT NULL UNIQUE,
  -- The gateway's own id, as TEXT (LINE Pay's 19-digit transactionId does not fit a double).
  gateway_trade_no TEXT NOT NULL DEFAULT '',
  amount INTEGER NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL DEFAULT 'TWD',
  purpose TEXT NOT NULL CHECK (purpose IN ('full', 'deposit', 'balance')),
  -- late: the money arrived after the order had expired; it is owed back to the guest.
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'code_issued', 'paid', 'failed', 'late', 'refunded')),
  -- Whether the paid amount has been added to the order (once, ever).
  applied INTEGER NOT NULL DEFAULT 0 CHECK (applied IN (0, 1)),
  -- ATM account or store code: bank, account, expiry.
  code_info TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(code_info)),
  message TEXT NOT NULL DEFAULT '',
  paid_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX payments_by_order ON payments (order_id, id);

-- Every callback that changed nothing, and why (a refused signature, another hotel's trade, a replay).
CREATE TABLE payment_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER,
  route TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('applied', 'ignored', 'refused')),
  reason TEXT NOT NULL DEFAULT '',
  trade_no TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
