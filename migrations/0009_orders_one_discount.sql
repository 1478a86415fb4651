-- One discount per order (issue 24): coupon_discount was written with promotion_discount's value on
-- every order and never read apart from it. The API's couponDiscount is promotion_discount. No index,
-- view, trigger or other column's CHECK names the column, so SQLite drops it in place (its own CHECK
-- goes with it): no table rebuild.
ALTER TABLE orders DROP COLUMN coupon_discount;
