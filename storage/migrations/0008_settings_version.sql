-- A table's settings are written only if they are still those read (a compare-and-set,
-- as its seats are): the count of their changes, so that of two changes made at once
-- in two bot processes one is refused instead of silently lost.
ALTER TABLE tables ADD COLUMN settings_version INTEGER NOT NULL DEFAULT 0;
