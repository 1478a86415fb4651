-- Issue 41, the advisory remote checks (decision 166): the e-invoice sandbox's test hook may also
-- make a call answer late ('slow'), past the deadline the checkout gives a remote check. The table
-- is rebuilt for its CHECK, with every column it had (0023).
CREATE TABLE einvoice_sandbox_failures_new (
  hotel_id INTEGER NOT NULL,
  op TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('rate_limited', 'unavailable', 'refused', 'lost_answer', 'slow')),
  remaining INTEGER NOT NULL CHECK (remaining >= 0),
  PRIMARY KEY (hotel_id, op)
);
INSERT INTO einvoice_sandbox_failures_new SELECT hotel_id, op, kind, remaining FROM einvoice_sandbox_failures;
DROP TABLE einvoice_sandbox_failures;
ALTER TABLE einvoice_sandbox_failures_new RENAME TO einvoice_sandbox_failures;
