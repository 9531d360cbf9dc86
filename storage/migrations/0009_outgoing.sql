-- Several bot processes: what the process that got an update has to say in Telegram
-- (a lobby message, a command's reply), kept until the one process that sends for all
-- of them has sent it (``bot.relay``), so that Telegram's limits are counted in one
-- place and nothing is lost if a process dies before it is sent. The body is the bot's
-- own JSON; rows are taken in id order and deleted once sent.
CREATE TABLE outgoing (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    body       TEXT NOT NULL,
    created_at REAL NOT NULL
);
