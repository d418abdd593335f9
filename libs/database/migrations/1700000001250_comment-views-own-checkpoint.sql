-- Up Migration
-- comment_views becomes a read model of its own: its own tables and its own checkpoint; no projection
-- writes another's tables.
-- The workspace's own first comments, which the comment list leaves out: recorded by the comment_views
-- projection from the FirstCommentPosted events (it used to read post_views.own_comment_ids).
CREATE TABLE comment_view_own_comments (
  post_id uuid NOT NULL,
  platform_comment_id text NOT NULL,
  PRIMARY KEY (post_id, platform_comment_id)
);
-- The own comments already known: from the events stored here, and from post_views (an event store kept
-- elsewhere, and posts the post list still shows).
INSERT INTO comment_view_own_comments (post_id, platform_comment_id)
SELECT (data->>'postId')::uuid, data->>'platformCommentId' FROM events WHERE type = 'FirstCommentPosted' AND stream_id LIKE 'post-%'
UNION
SELECT id, unnest(own_comment_ids) FROM post_views
ON CONFLICT DO NOTHING;
-- Both read models followed the one `post_views` checkpoint: post_views keeps it, comment_views starts from
-- where it stood (a projector still running the old code meanwhile only makes the new one replay a few
-- events, which changes nothing).
INSERT INTO checkpoints (name, position)
SELECT 'comment_views', position FROM checkpoints WHERE name = 'post_views'
ON CONFLICT (name) DO NOTHING;

-- Down Migration
DELETE FROM checkpoints WHERE name = 'comment_views';
DROP TABLE comment_view_own_comments;
