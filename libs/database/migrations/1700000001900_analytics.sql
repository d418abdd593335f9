-- Up Migration
-- Analytics (issue 24). Observations are events (postmetric-<postId>, accountmetric-<accountId>);
-- these tables are (1) the analytics service's own collection schedule and (2) the read models
-- the projector folds from those events.

-- (1) The collector's work list: one row per published item (an account's copy of a post), found
-- in post_views; next_due_at NULL once the item is past the schedule's end. last_* is the fold of
-- the item's own events (ItemMetricsState), kept here so deciding never reads the stream.
CREATE TABLE metrics_collection_items (
  post_id uuid NOT NULL,
  account_id uuid NOT NULL,
  workspace_id uuid NOT NULL,
  platform text NOT NULL,
  platform_post_id text NOT NULL,
  published_at timestamptz NOT NULL,
  next_due_at timestamptz,
  last_observed_at timestamptz,
  last_metrics jsonb,
  failure_code text,
  PRIMARY KEY (post_id, account_id)
);
CREATE INDEX metrics_collection_items_due ON metrics_collection_items (next_due_at) WHERE next_due_at IS NOT NULL;

-- Each connected account's follower count, collected daily.
CREATE TABLE metrics_collection_accounts (
  account_id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  platform text NOT NULL,
  next_due_at timestamptz,
  last_observed_at timestamptz
);
CREATE INDEX metrics_collection_accounts_due ON metrics_collection_accounts (next_due_at) WHERE next_due_at IS NOT NULL;

-- (2) Read model post_metrics (checkpoint post_metrics): one row per post stream (the view
-- verify-projections compares), the summary GET /api/v1/posts shows.
CREATE TABLE post_metrics (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  likes bigint,
  comments bigint,
  shares bigint,
  impressions bigint,
  collected_at timestamptz,
  version integer NOT NULL
);
-- The latest numbers of each item (top posts, GET /api/v1/posts/:id/metrics).
CREATE TABLE post_metric_items (
  post_id uuid NOT NULL,
  account_id uuid NOT NULL,
  workspace_id uuid NOT NULL,
  platform text NOT NULL,
  platform_post_id text NOT NULL,
  published_at timestamptz NOT NULL,
  metrics jsonb,
  collected_at timestamptz,
  error jsonb,
  PRIMARY KEY (post_id, account_id)
);
CREATE INDEX post_metric_items_workspace_published ON post_metric_items (workspace_id, published_at DESC);
-- Every observation: the curves.
CREATE TABLE post_metric_observations (
  post_id uuid NOT NULL,
  account_id uuid NOT NULL,
  observed_at timestamptz NOT NULL,
  metrics jsonb NOT NULL,
  PRIMARY KEY (post_id, account_id, observed_at)
);

-- Read model account_metrics (checkpoint account_metrics): the latest follower count per account and its curve.
CREATE TABLE account_metrics (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  platform text NOT NULL,
  followers bigint,
  collected_at timestamptz,
  version integer NOT NULL
);
CREATE TABLE account_metric_observations (
  account_id uuid NOT NULL,
  observed_at timestamptz NOT NULL,
  followers bigint,
  PRIMARY KEY (account_id, observed_at)
);

-- Down Migration
DROP TABLE account_metric_observations;
DROP TABLE account_metrics;
DROP TABLE post_metric_observations;
DROP TABLE post_metric_items;
DROP TABLE post_metrics;
DROP TABLE metrics_collection_accounts;
DROP TABLE metrics_collection_items;
