-- Issue 40, decision 154: the order's batch refuses a stay the stay rules (migration 0019) refuse.
-- The order is priced from a read, then written in one batch; staff may close a night or set a rule
-- in between. The batch begins with `INSERT INTO stay_rule_refusals SELECT ... WHERE <a rule of
-- the stay's rows refuses it now>` (backend/orders/stay-guard.server.ts): the row aborts the whole
-- batch, so no order, line, night or email is written, and the order answers with the rule.
CREATE VIEW stay_rule_refusals AS SELECT '' AS rule;
CREATE TRIGGER stay_rule_refusals_abort INSTEAD OF INSERT ON stay_rule_refusals
BEGIN
  SELECT RAISE(ABORT, 'stay_rule_refused');
END;
