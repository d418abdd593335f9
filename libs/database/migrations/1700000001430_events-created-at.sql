-- Up Migration
-- A webhook replay `since` a time starts from the feed position at that time (PostgresEventStore.positionBefore)
-- instead of reading the feed from its start: the newest event stored before a time, found by this index.
CREATE INDEX events_created_at ON events (created_at);

-- Down Migration
DROP INDEX events_created_at;
