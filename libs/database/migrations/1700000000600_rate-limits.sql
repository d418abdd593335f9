-- Up Migration
-- Rate-limit counters shared by every gateway replica (libs/rate-limits): one row per API key
-- and policy, holding the current fixed window and the one before it (a sliding-window
-- approximation). UNLOGGED: no WAL for a row written on every request; after a crash the table
-- comes back empty, which only forgives the last minute's requests. Not replicated to standbys
-- for the same reason. fillfactor leaves room in each page so the per-request update is HOT.
-- No foreign key to api_keys: a check per request would cost more than the counters are worth,
-- and a revoked key's row is swept once idle.
CREATE UNLOGGED TABLE rate_limit_counters (
  key_id uuid NOT NULL,
  policy text NOT NULL,
  window_ms integer NOT NULL CHECK (window_ms > 0),
  -- floor(epoch milliseconds / window_ms) of the current window.
  window_index bigint NOT NULL,
  current_hits integer NOT NULL,
  previous_hits integer NOT NULL,
  PRIMARY KEY (key_id, policy)
) WITH (fillfactor = 70);

-- Down Migration
DROP TABLE rate_limit_counters;
