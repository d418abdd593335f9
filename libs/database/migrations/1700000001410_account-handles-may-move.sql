-- Up Migration
-- An account is its platform identity (accounts_workspace_platform_identity keeps one row per
-- identity in a workspace); its handle is a label the platform lets its user change. Once a user
-- renames their account and another identity takes the old name, both rows carry that handle until
-- the renamed one signs in again (which updates its handle): a sign-in must store it rather than
-- fail on a unique handle. References by handle that match two accounts answer ambiguous_account
-- with the candidates (resolveAccountRefs).
DROP INDEX accounts_workspace_platform_handle;
CREATE INDEX accounts_workspace_platform_handle ON accounts (workspace_id, platform, lower(handle));

-- Down Migration
-- Fails while two accounts of a workspace share a handle on one platform: rename one first.
DROP INDEX accounts_workspace_platform_handle;
CREATE UNIQUE INDEX accounts_workspace_platform_handle ON accounts (workspace_id, platform, lower(handle));
