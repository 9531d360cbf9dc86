-- The shards of the chats (``storage.shards``): each waiting message knows its chat's
-- shard, and the process holding that shard's lease sends it. A row of an older bot
-- (NULL) is sent by the holder of shard 0.
ALTER TABLE outgoing ADD COLUMN shard INTEGER;
CREATE INDEX outgoing_shard ON outgoing (shard, id);
