-- Up Migration
-- Connect links (issue 25): a hosted page where a workspace's end user connects accounts. The
-- link's url carries `<id>.<HMAC>`; the row holds what the signature cannot: the workspace, where
-- "Done" sends the user, the platforms offered, the brand, the expiry and the revocation.
CREATE TABLE connect_links (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  redirect_uri text NOT NULL,
  platforms text[],
  brand jsonb,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX connect_links_workspace ON connect_links (workspace_id);

-- The accounts connected through a link, for its page and its "Done" (account_ids).
CREATE TABLE connect_link_accounts (
  link_id uuid NOT NULL REFERENCES connect_links (id) ON DELETE CASCADE,
  account_id uuid NOT NULL,
  connected_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (link_id, account_id)
);

-- Down Migration
DROP TABLE connect_link_accounts;
DROP TABLE connect_links;
