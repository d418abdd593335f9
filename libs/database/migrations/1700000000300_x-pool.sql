-- Up Migration
-- The X pool: X posts and replies a workspace has made per calendar month (UTC).
-- One row per workspace and month, taken and given back one unit at a time
-- (see libs/quotas); the size is configuration (X_POOL_MONTHLY_POSTS), not data.
CREATE TABLE x_pool_usage (
  workspace_id uuid NOT NULL,
  -- The first day of the month, UTC.
  period date NOT NULL,
  used integer NOT NULL CHECK (used >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, period)
);

-- Down Migration
DROP TABLE x_pool_usage;
