-- The Telegram updates whose handling changed something (``storage.handled``): each
-- written in the transaction of that change, so that an update sent again (its process
-- died before answering it) is not applied twice. Shared by every process on a server;
-- rows older than an hour are deleted.
CREATE TABLE handled_updates (
    update_id  INTEGER PRIMARY KEY,
    handled_at REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX handled_updates_at ON handled_updates (handled_at);
