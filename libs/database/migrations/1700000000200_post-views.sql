-- Up Migration
-- Read model behind GET /api/v1/posts, built by the projector from the event feed.
CREATE TABLE post_views (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  content text NOT NULL,
  -- What the list shows: bodies over 500 characters shortened with an ellipsis,
  -- kept apart so a list never reads the full (possibly TOASTed) body.
  content_preview text NOT NULL,
  platforms text[] NOT NULL,
  accounts jsonb NOT NULL,
  media_urls jsonb NOT NULL,
  first_comments jsonb NOT NULL,
  status text NOT NULL,
  scheduled_at timestamptz,
  published_at timestamptz,
  results jsonb NOT NULL DEFAULT '[]',
  error_message text,
  created_at timestamptz NOT NULL,
  version integer NOT NULL
);
CREATE INDEX post_views_newest ON post_views (workspace_id, created_at DESC, id DESC);
CREATE INDEX post_views_status_newest ON post_views (workspace_id, status, created_at DESC, id DESC);

-- Down Migration
DROP TABLE post_views;
