-- Up Migration
-- The inbox's filters on GET /api/v1/comments: one post's comments (postId), and an intent tag (tag, e.g.
-- question). A post's comments are a keyset range of their own index; a tag is a containment test
-- (tags @> ARRAY[tag]) the GIN index answers, the page then ordered by the newest-first index.
CREATE INDEX comment_views_post_newest ON comment_views (workspace_id, post_id, commented_at DESC, id DESC);
CREATE INDEX comment_views_tags ON comment_views USING gin (tags);

-- Down Migration
DROP INDEX comment_views_tags;
DROP INDEX comment_views_post_newest;
