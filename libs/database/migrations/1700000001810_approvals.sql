-- Up Migration
-- Approvals (issue 23): a workspace may require a reviewer's approval before anything goes public
-- (configuration, like its keys: a plain column). A post held for review carries its approval
-- ({state, by, at, note}) in its view; the list filters on its state.
ALTER TABLE workspaces ADD COLUMN approval_required boolean NOT NULL DEFAULT false;
ALTER TABLE post_views ADD COLUMN approval jsonb;
CREATE INDEX post_views_approval_state ON post_views (workspace_id, (approval->>'state'), created_at DESC, id DESC) WHERE approval IS NOT NULL;

-- Down Migration
DROP INDEX post_views_approval_state;
ALTER TABLE post_views DROP COLUMN approval;
ALTER TABLE workspaces DROP COLUMN approval_required;
