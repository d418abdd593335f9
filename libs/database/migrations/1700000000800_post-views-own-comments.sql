-- Up Migration
-- Platform ids of the comments the service itself posted under the post (its first comments), so
-- comment ingestion never shows the workspace its own words as incoming comments.
ALTER TABLE post_views ADD COLUMN own_comment_ids text[] NOT NULL DEFAULT '{}';

-- Down Migration
ALTER TABLE post_views DROP COLUMN own_comment_ids;
