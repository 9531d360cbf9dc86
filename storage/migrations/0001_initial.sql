-- Chats, players, tables, games and the append-only action log.
CREATE TABLE chats (
    id          INTEGER PRIMARY KEY,          -- Telegram chat id
    title       TEXT NOT NULL DEFAULT '',
    lang        TEXT NOT NULL DEFAULT 'ru',
    settings    TEXT NOT NULL DEFAULT '{}',   -- default table settings (JSON)
    created_at  REAL NOT NULL
);

CREATE TABLE users (
    id          INTEGER PRIMARY KEY,          -- Telegram user id
    name        TEXT NOT NULL,
    username    TEXT,
    lang        TEXT NOT NULL DEFAULT 'ru',
    can_message INTEGER NOT NULL DEFAULT 0,   -- the bot may write to them privately
    updated_at  REAL NOT NULL
);

CREATE TABLE tables (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id          INTEGER NOT NULL REFERENCES chats(id) ON UPDATE CASCADE,
    creator_id       INTEGER NOT NULL,
    settings         TEXT NOT NULL,           -- Rules as JSON
    seats            TEXT NOT NULL,           -- JSON list of {kind, user_id, name, level}
    status           TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'closed')),
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    created_at       REAL NOT NULL
);
CREATE UNIQUE INDEX tables_one_open_per_chat ON tables(chat_id) WHERE status != 'closed';

CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id     INTEGER NOT NULL REFERENCES tables(id),
    rules        TEXT NOT NULL,               -- Rules as JSON
    seats        TEXT NOT NULL,               -- JSON, as in tables.seats when the game began
    seed         INTEGER NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('playing', 'over')),
    version      INTEGER NOT NULL DEFAULT 0,  -- the number of actions applied
    snapshot     TEXT NOT NULL,               -- engine State.to_dict() as JSON
    deadline     REAL,                        -- unix time when the current move times out
    deadline_for TEXT,                        -- 'attack', 'defend' or 'throw'
    outcome      TEXT,                        -- engine Outcome.to_dict() as JSON
    started_at   REAL NOT NULL,
    ended_at     REAL
);
CREATE INDEX games_by_status ON games(status);

CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,                 -- 1, 2, ... in the order applied
    seat    INTEGER NOT NULL,
    action  TEXT NOT NULL,                    -- the engine's text form, e.g. 'd 9H>7H'
    auto    INTEGER NOT NULL DEFAULT 0,       -- made by a timeout or a stand-in bot
    at      REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
