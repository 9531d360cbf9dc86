-- A deal's seed has 128 random bits, more than SQLite's INTEGER (64) holds: games from
-- now on keep it as decimal text in seed_text (with 0 in seed); older games keep theirs
-- in seed, so their replays still work.
ALTER TABLE games ADD COLUMN seed_text TEXT;
