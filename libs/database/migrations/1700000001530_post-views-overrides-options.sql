-- Up Migration
-- A post's overrides (keyed as stored: platform id or account id) and platformOptions (keyed by
-- platform id), as the post's events hold them ({} for none), for the detail view.
ALTER TABLE post_views ADD COLUMN overrides jsonb NOT NULL DEFAULT '{}';
ALTER TABLE post_views ADD COLUMN platform_options jsonb NOT NULL DEFAULT '{}';

-- Down Migration
ALTER TABLE post_views DROP COLUMN platform_options;
ALTER TABLE post_views DROP COLUMN overrides;
