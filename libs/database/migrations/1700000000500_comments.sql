-- Up Migration
-- Read model behind GET /api/v1/comments, built by the projector from the comment events.
CREATE TABLE comment_views (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  platform text NOT NULL,
  platform_comment_id text NOT NULL,
  platform_post_id text NOT NULL,
  post_id uuid NOT NULL,
  account_id uuid NOT NULL,
  author text NOT NULL,
  text text NOT NULL,
  sentiment text NOT NULL,
  tags text[] NOT NULL,
  replied boolean NOT NULL DEFAULT false,
  -- Platform ids of the workspace's own replies: ingestion never takes them for new comments.
  reply_ids text[] NOT NULL DEFAULT '{}',
  post_title text,
  url text,
  commented_at timestamptz NOT NULL,
  version integer NOT NULL
);
-- The list: newest first, per workspace, each filter with its own ordered index.
CREATE INDEX comment_views_newest ON comment_views (workspace_id, commented_at DESC, id DESC);
CREATE INDEX comment_views_platform_newest ON comment_views (workspace_id, platform, commented_at DESC, id DESC);
CREATE INDEX comment_views_sentiment_newest ON comment_views (workspace_id, sentiment, commented_at DESC, id DESC);
CREATE INDEX comment_views_unreplied_newest ON comment_views (workspace_id, commented_at DESC, id DESC) WHERE NOT replied;
-- Ingestion: what is already stored under one published item; replies: a platform id on the wrong platform.
CREATE INDEX comment_views_item ON comment_views (workspace_id, platform, platform_post_id);
CREATE INDEX comment_views_platform_comment ON comment_views (workspace_id, platform_comment_id);
-- Webhooks name the platform's item: find who published it among the posts' results.
CREATE INDEX post_views_results_items ON post_views USING gin (results jsonb_path_ops);

-- Down Migration
DROP INDEX post_views_results_items;
DROP TABLE comment_views;
