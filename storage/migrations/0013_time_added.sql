-- Seconds an outage of the database added to the running game's deadline (``service.outage``):
-- shown to the players until the next step; NULL when the deadline is as it was set.
ALTER TABLE games ADD COLUMN time_added REAL;
