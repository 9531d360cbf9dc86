-- Several bot processes: the page a hand keyboard shows other than the hand («⋯», the
-- cards marked for an opening, a card's targets; ``bot.hand_pages``), so that a press
-- on it is checked alike wherever it arrives, and the process that shows the games
-- draws it. The body is the bot's own JSON; a row goes when the page is closed.
CREATE TABLE hand_pages (
    game_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    body    TEXT NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
