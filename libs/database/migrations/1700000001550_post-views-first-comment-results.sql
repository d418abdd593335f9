-- Up Migration
-- Per account id, each recorded first comment ({index, status, platformCommentId, url | error}, in order):
-- GET /api/v1/posts/:id shows what became of every first comment, as threadResults does for thread parts.
-- Rows of posts whose first comments were recorded before this column read '{}' until a rebuild
-- (npm run rebuild-projections) replays their events.
ALTER TABLE post_views ADD COLUMN first_comment_results jsonb NOT NULL DEFAULT '{}';

-- Down Migration
ALTER TABLE post_views DROP COLUMN first_comment_results;
