-- Up Migration
-- Accounts know who they are on their platform (issue 9): the platform's own id, the
-- instance or PDS, how the credential is renewed and until when it is good, the scopes
-- granted, and a health status. The credentials column keeps its AES-256-GCM envelope;
-- it now holds a JSON credential set (access and refresh tokens), and an older row's bare
-- token is read as {accessToken}.
ALTER TABLE accounts DROP CONSTRAINT accounts_status_check;
ALTER TABLE accounts
  ADD COLUMN platform_account_id text,
  ADD COLUMN instance_url text,
  ADD COLUMN attributes jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN credential_kind text,
  ADD COLUMN token_expires_at timestamptz,
  ADD COLUMN refresh_token_expires_at timestamptz,
  ADD COLUMN scopes text[] NOT NULL DEFAULT '{}',
  ADD COLUMN status_reason text,
  ADD COLUMN status_since timestamptz NOT NULL DEFAULT now(),
  -- Revision of the account's last lifecycle event (stream account-<id>); -1: none yet.
  ADD COLUMN lifecycle_revision bigint NOT NULL DEFAULT -1,
  ADD CONSTRAINT accounts_status_check CHECK (status IN ('connected', 'needs_reauth', 'disconnected'));

-- Rows from before: without credentials they never worked (needs_reauth: connect again);
-- with a token but no platform identity, the accounts service reads the identity with the
-- stored token on its next pass and makes them connected again, or leaves them needing
-- re-authorisation if the platform refuses the token.
UPDATE accounts SET status = 'needs_reauth', status_reason = CASE WHEN credentials IS NULL THEN 'no_credentials' ELSE 'identity_unknown' END
 WHERE status = 'connected' AND platform_account_id IS NULL;

-- One row per platform identity in a workspace: signing in again updates it.
CREATE UNIQUE INDEX accounts_workspace_platform_identity ON accounts (workspace_id, platform, platform_account_id) WHERE platform_account_id IS NOT NULL;
-- The refresher's pass: accounts whose token ends soonest.
CREATE INDEX accounts_token_expiry ON accounts (token_expires_at) WHERE status = 'connected' AND token_expires_at IS NOT NULL;

-- A sign-in in progress: created by POST /api/v1/accounts/connect, spent once by the callback.
-- The PKCE verifier is encrypted like credentials.
CREATE TABLE account_connect_requests (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  platform text NOT NULL,
  redirect_uri text NOT NULL,
  instance_url text,
  code_verifier bytea NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Our app as registered on a federated server (Mastodon registers apps per instance, at first use).
CREATE TABLE platform_apps (
  platform text NOT NULL,
  instance_url text NOT NULL,
  client_id text NOT NULL,
  client_secret bytea,
  redirect_uri text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (platform, instance_url)
);

-- Down Migration
DROP TABLE platform_apps;
DROP TABLE account_connect_requests;
DROP INDEX accounts_token_expiry;
DROP INDEX accounts_workspace_platform_identity;
ALTER TABLE accounts DROP CONSTRAINT accounts_status_check;
UPDATE accounts SET status = 'disconnected' WHERE status = 'needs_reauth';
ALTER TABLE accounts
  DROP COLUMN platform_account_id, DROP COLUMN instance_url, DROP COLUMN attributes, DROP COLUMN credential_kind,
  DROP COLUMN token_expires_at, DROP COLUMN refresh_token_expires_at, DROP COLUMN scopes,
  DROP COLUMN status_reason, DROP COLUMN status_since, DROP COLUMN lifecycle_revision,
  ADD CONSTRAINT accounts_status_check CHECK (status IN ('connected', 'disconnected'));
