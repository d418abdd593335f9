-- Up Migration
-- A sign-in completes in two steps (issue 21): the callback exchanges the code and holds what
-- it gave as a pending connection (sealed like credentials, under a one-time connection id);
-- the client's backend attaches it with the verifier POST /api/v1/accounts/connect answered
-- only to it (its SHA-256 digest here). Sign-ins started before this migration have no
-- verifier: their callback is refused (connect_state_invalid) and the user starts again.
ALTER TABLE account_connect_requests
  ADD COLUMN verifier_hash bytea,
  ADD COLUMN connection_id uuid UNIQUE,
  ADD COLUMN signed_in bytea,
  ADD COLUMN connection_expires_at timestamptz,
  ADD COLUMN completed_at timestamptz;

-- The origins a workspace lets sign-ins send users back to (empty: any public https url).
ALTER TABLE workspaces ADD COLUMN redirect_origins text[] NOT NULL DEFAULT '{}';

-- Down Migration
ALTER TABLE workspaces DROP COLUMN redirect_origins;
ALTER TABLE account_connect_requests
  DROP COLUMN completed_at,
  DROP COLUMN connection_expires_at,
  DROP COLUMN signed_in,
  DROP COLUMN connection_id,
  DROP COLUMN verifier_hash;
