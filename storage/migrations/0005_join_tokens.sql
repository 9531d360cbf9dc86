-- Each table's join token: the deep link t.me/<bot>?start=join_<token> names a table by
-- it, not by its (sequential, guessable) id. Tables of older versions get one here.
ALTER TABLE tables ADD COLUMN join_token TEXT;
UPDATE tables SET join_token = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX tables_by_join_token ON tables(join_token);
