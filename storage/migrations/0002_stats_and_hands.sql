-- Per-chat statistics with a rating, and each player's hand message.
CREATE TABLE stats (
    chat_id    INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    fools      INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    surrenders INTEGER NOT NULL DEFAULT 0,
    pogony     INTEGER NOT NULL DEFAULT 0,
    mu         REAL NOT NULL,                 -- OpenSkill rating: mean
    sigma      REAL NOT NULL,                 -- and uncertainty
    PRIMARY KEY (chat_id, user_id)
) WITHOUT ROWID;

CREATE TABLE hand_messages (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    message_id INTEGER NOT NULL,              -- in the private chat with the user
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
