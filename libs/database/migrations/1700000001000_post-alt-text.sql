-- Up Migration
-- The alt text of a post's media: [] when no item has any, else one entry per media_urls entry (null for none).
ALTER TABLE post_views ADD COLUMN alt_text jsonb NOT NULL DEFAULT '[]';

-- Down Migration
ALTER TABLE post_views DROP COLUMN alt_text;
