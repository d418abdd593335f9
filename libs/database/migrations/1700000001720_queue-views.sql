-- Up Migration
-- The posting queues' read model (projected from the queue-<accountId> streams by the post_views
-- projection, under its checkpoint: a queued post's answer and the queue it sits in show together).
-- One row per account queue: its weekly schedule and the revision of the last event applied
-- (an event at or below it is a replay and changes nothing).
CREATE TABLE account_queues (
  account_id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  timezone text,
  slots jsonb NOT NULL DEFAULT '[]',
  schedule_updated_at timestamptz,
  revision bigint NOT NULL
);

-- The slots queued posts hold: GET /api/v1/queue and the calendar's free slots.
CREATE TABLE queue_claims (
  account_id uuid NOT NULL,
  slot_at timestamptz NOT NULL,
  post_id uuid NOT NULL,
  workspace_id uuid NOT NULL,
  PRIMARY KEY (account_id, slot_at)
);
CREATE INDEX queue_claims_workspace_slot ON queue_claims (workspace_id, slot_at);

-- The calendar and the posts list by time: scheduled or published time, within a workspace.
CREATE INDEX post_views_workspace_scheduled ON post_views (workspace_id, scheduled_at) WHERE scheduled_at IS NOT NULL;
CREATE INDEX post_views_workspace_published ON post_views (workspace_id, published_at) WHERE published_at IS NOT NULL;

-- Down Migration
DROP INDEX post_views_workspace_published;
DROP INDEX post_views_workspace_scheduled;
DROP TABLE queue_claims;
DROP TABLE account_queues;
