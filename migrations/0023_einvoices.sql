-- Issue 41, e-invoices (電子發票), decision 159: who issues for each hotel, each order's invoice
-- state and its documents, the history, the retry queue, the built-in sandbox provider's store,
-- and a member's remembered buyer choice.

-- The hotel file's `invoicing`: who issues (Portico at payment, at check-out, or the hotel's own
-- system), through which provider, under which 統一編號. Provider keys are Worker secrets, named here.
CREATE TABLE hotel_invoicing (
  hotel_id INTEGER PRIMARY KEY REFERENCES hotels(id) ON DELETE CASCADE,
  issuer TEXT NOT NULL CHECK (issuer IN ('portico_at_payment', 'portico_at_checkout', 'hotel_system')),
  provider TEXT NOT NULL CHECK (provider IN ('sandbox', 'ecpay')),
  mode TEXT NOT NULL DEFAULT 'test' CHECK (mode IN ('test', 'production')),
  seller_tax_id TEXT NOT NULL CHECK (length(seller_tax_id) = 8),
  merchant_id TEXT NOT NULL DEFAULT '',
  secrets TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(secrets))
);

-- One row per order: its invoices' state (the state machine's, domain/einvoice/machine.ts, as
-- JSON), what the guest chose, and a summary to read without it. `version` moves with every write,
-- so that two writers never both apply a change read from the same state.
CREATE TABLE order_invoices (
  order_id INTEGER PRIMARY KEY REFERENCES orders(id) ON DELETE CASCADE,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  issuer TEXT NOT NULL CHECK (issuer IN ('portico_at_payment', 'portico_at_checkout', 'hotel_system')),
  provider TEXT NOT NULL CHECK (provider IN ('sandbox', 'ecpay', 'none')),
  buyer TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(buyer)),
  state TEXT NOT NULL CHECK (json_valid(state)),
  status TEXT NOT NULL DEFAULT 'none'
    CHECK (status IN ('hotel_system', 'none', 'pending', 'delayed', 'issued', 'allowance', 'voided', 'retrying', 'failed')),
  -- What the issued invoices less allowances come to, and the latest invoice's number, random number and Taipei date.
  amount INTEGER NOT NULL DEFAULT 0 CHECK (amount >= 0),
  number TEXT NOT NULL DEFAULT '',
  random_number TEXT NOT NULL DEFAULT '',
  issued_on TEXT NOT NULL DEFAULT '',
  version INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX order_invoices_by_hotel ON order_invoices (hotel_id, status);

-- Every invoice an order has had, one row each; the relate number (ours, sent to the provider) is
-- unique: the same relate number never names two invoices, so nothing is issued twice.
CREATE TABLE einvoice_documents (
  relate_number TEXT PRIMARY KEY CHECK (relate_number NOT GLOB '*[^A-Za-z0-9]*' AND length(relate_number) BETWEEN 1 AND 30),
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL CHECK (seq >= 1),
  amount INTEGER NOT NULL CHECK (amount > 0),
  purpose TEXT NOT NULL CHECK (purpose IN ('stay', 'deposit', 'balance', 'cancellation_fee')),
  status TEXT NOT NULL CHECK (status IN ('sent', 'delayed', 'issued', 'voided', 'cancelled', 'absent')),
  number TEXT NOT NULL DEFAULT '',
  random_number TEXT NOT NULL DEFAULT '',
  issued_on TEXT NOT NULL DEFAULT '',
  UNIQUE (order_id, seq)
);

-- Every allowance (折讓) of an order's invoices.
CREATE TABLE einvoice_allowances (
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL CHECK (seq >= 1),
  invoice_seq INTEGER NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0),
  status TEXT NOT NULL CHECK (status IN ('sent', 'issued', 'voided')),
  number TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (order_id, seq)
);

-- The history of an order's invoices, append-only: each event and each provider call with its outcome.
CREATE TABLE einvoice_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  hotel_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('recorded', 'sent', 'done', 'failed')),
  detail TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX einvoice_events_by_order ON einvoice_events (order_id, id);

-- Orders with invoice work due: the runner takes rows whose next_attempt_at has come, oldest
-- first (a change queues its order due at once: the epoch). After a failure the row waits
-- (back-off; after an HTTP 403 at least 30 minutes).
CREATE TABLE einvoice_queue (
  order_id INTEGER PRIMARY KEY REFERENCES orders(id) ON DELETE CASCADE,
  hotel_id INTEGER NOT NULL,
  next_attempt_at TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  last_error TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX einvoice_queue_due ON einvoice_queue (next_attempt_at);

-- The built-in sandbox provider's own store: what it issued, by hotel and relate number (so an
-- issue asked twice answers the same invoice), the allowances it made, and failures a test asks of it.
CREATE TABLE einvoice_sandbox_invoices (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL,
  relate_number TEXT NOT NULL,
  number TEXT UNIQUE CHECK (number IS NULL OR number GLOB '[A-Z][A-Z][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'),
  random_number TEXT NOT NULL DEFAULT '' CHECK (random_number = '' OR random_number GLOB '[0-9][0-9][0-9][0-9]'),
  amount INTEGER NOT NULL CHECK (amount > 0),
  items TEXT NOT NULL CHECK (json_valid(items)),
  buyer TEXT NOT NULL CHECK (json_valid(buyer)),
  status TEXT NOT NULL CHECK (status IN ('held', 'issued', 'voided', 'cancelled')),
  issued_on TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (hotel_id, relate_number)
);

CREATE TABLE einvoice_sandbox_allowances (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL,
  number TEXT NOT NULL UNIQUE,
  invoice_number TEXT NOT NULL REFERENCES einvoice_sandbox_invoices(number),
  amount INTEGER NOT NULL CHECK (amount > 0),
  status TEXT NOT NULL CHECK (status IN ('issued', 'voided')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A test's hook: the next `remaining` calls of `op` ('*' for any) for this hotel fail as `kind`.
CREATE TABLE einvoice_sandbox_failures (
  hotel_id INTEGER NOT NULL,
  op TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('rate_limited', 'unavailable', 'refused', 'lost_answer')),
  remaining INTEGER NOT NULL CHECK (remaining >= 0),
  PRIMARY KEY (hotel_id, op)
);

-- What a member chose last time (carrier, donation or company), offered again at the next checkout.
CREATE TABLE member_invoice_choices (
  member_id INTEGER PRIMARY KEY REFERENCES members(id) ON DELETE CASCADE,
  choice TEXT NOT NULL CHECK (json_valid(choice)),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
