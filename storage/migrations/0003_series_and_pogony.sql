-- A table's series (the last fool, «погоны» awards per player), where each game
-- started in it (for a rebuild from the log), and «погоны» given in the statistics.
ALTER TABLE tables ADD COLUMN series TEXT NOT NULL DEFAULT '{}';
ALTER TABLE games ADD COLUMN last_fool INTEGER;       -- the seat attacked first (series_opener)
ALTER TABLE games ADD COLUMN pogony_ranks TEXT;       -- JSON list: each seat's pogony rank
ALTER TABLE stats ADD COLUMN pogony_given INTEGER NOT NULL DEFAULT 0;  -- "pogony" = received
