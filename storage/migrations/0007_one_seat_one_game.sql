-- The lobby's rules as constraints, so that several bot processes on one database
-- keep them too: a person holds one seat at a time (a row per seated person of an
-- open table, written with the table's seats and gone when the table closes; filled
-- for the open tables here), and a table plays one game at a time.
CREATE TABLE table_seats (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;
CREATE UNIQUE INDEX table_seats_one_per_person ON table_seats(user_id);
CREATE UNIQUE INDEX games_one_playing_per_table ON games(table_id) WHERE status = 'playing';
