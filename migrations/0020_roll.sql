-- Issue 40, decision 155: a limited add-on's standing count per day, so the daily roll-forward opens
-- its new days as the import does (the hotel file's addons[].inventory.per_day). NULL: unlimited.
ALTER TABLE addons ADD COLUMN per_day INTEGER CHECK (per_day IS NULL OR per_day >= 0);
