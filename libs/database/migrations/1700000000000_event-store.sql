-- Up Migration
-- The PostgreSQL event store: one append-only table.
-- transaction_id (xid8) + global_position order the global feed; readers only see
-- rows whose transaction is older than every transaction still running, so an
-- event that commits late with a lower sequence value is never skipped.
CREATE TABLE events (
  global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
  event_id uuid NOT NULL UNIQUE,
  stream_id text NOT NULL,
  stream_position bigint NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT events_stream_revision UNIQUE (stream_id, stream_position)
);
CREATE INDEX events_feed_order ON events (transaction_id, global_position);

-- Durable positions of the feed followers (relay, projections).
CREATE TABLE checkpoints (
  name text PRIMARY KEY,
  position text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration
DROP TABLE checkpoints;
DROP TABLE events;
