-- Up Migration
CREATE TABLE workspaces (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- API keys are stored as a SHA-256 digest only: the key is 256 random bits, so a
-- fast digest is as safe as a slow password hash and keeps every request cheap.
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  key_hash bytea NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  scopes text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX api_keys_workspace ON api_keys (workspace_id);

-- Connected social accounts. Platform credentials are AES-256-GCM encrypted at rest.
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  platform text NOT NULL,
  handle text NOT NULL,
  display_name text NOT NULL,
  status text NOT NULL CHECK (status IN ('connected', 'disconnected')),
  credentials bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_workspace_platform_handle ON accounts (workspace_id, platform, lower(handle));

-- Down Migration
DROP TABLE accounts;
DROP TABLE api_keys;
DROP TABLE workspaces;
