-- Whether a table's lobby message is a game's summary (with «Ещё партию») rather than a
-- lobby: /settings takes the buttons off an older lobby, never off a summary.
ALTER TABLE tables ADD COLUMN lobby_is_summary INTEGER NOT NULL DEFAULT 0;
