-- Up Migration
-- When the current publication started: the scheduler closes publications that outlive every bound.
ALTER TABLE post_views ADD COLUMN publishing_since timestamptz;
CREATE INDEX post_views_publishing ON post_views (publishing_since) WHERE status = 'publishing';

-- Down Migration
DROP INDEX post_views_publishing;
ALTER TABLE post_views DROP COLUMN publishing_since;
