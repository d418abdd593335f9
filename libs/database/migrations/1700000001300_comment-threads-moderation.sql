-- Up Migration
-- The inbox beyond reading and replying: threads, hidden comments, the workspace's own replies (and their deletion).
ALTER TABLE comment_views
  -- The platformCommentId the comment replies to; null when it answers the post itself.
  ADD COLUMN parent_comment_id text,
  ADD COLUMN hidden boolean NOT NULL DEFAULT false,
  -- The workspace's live replies, oldest first: [{replyId, accountId, repliedAs, text, createdAt}]
  -- (reply_ids keeps every reply ever posted, deleted ones too, so ingestion never takes one for a comment).
  ADD COLUMN replies jsonb NOT NULL DEFAULT '[]';
-- The replies already stored (parents and hidden flags have no events before this migration).
UPDATE comment_views c SET replies = r.replies
FROM (
  SELECT stream_id, jsonb_agg(jsonb_build_object('replyId', data->>'replyPlatformId', 'accountId', data->>'accountId', 'repliedAs', data->>'repliedAs',
                                                 'text', data->>'message', 'createdAt', data->>'repliedAt') ORDER BY stream_position) AS replies
  FROM events WHERE type = 'CommentReplied' AND stream_id LIKE 'comment-%' GROUP BY stream_id
) r
WHERE r.stream_id = 'comment-' || c.id::text;
-- A thread: the comments under one comment, oldest first.
CREATE INDEX comment_views_thread ON comment_views (workspace_id, platform, parent_comment_id, commented_at, id) WHERE parent_comment_id IS NOT NULL;

-- Down Migration
DROP INDEX comment_views_thread;
ALTER TABLE comment_views DROP COLUMN replies, DROP COLUMN hidden, DROP COLUMN parent_comment_id;
