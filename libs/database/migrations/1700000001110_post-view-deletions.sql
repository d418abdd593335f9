-- Up Migration
-- The posts deleted, as the projector saw their PostDeleted: a post's creation delivered after its deletion
-- (the feed delivered it late, or a view caught up from its stream first) must not bring the post back.
CREATE TABLE post_view_deletions (
  id uuid PRIMARY KEY
);
-- The deletions already stored (an event store kept elsewhere leaves this empty: only late deliveries need it).
INSERT INTO post_view_deletions (id)
SELECT DISTINCT (data->>'postId')::uuid FROM events WHERE type = 'PostDeleted' AND stream_id LIKE 'post-%';

-- Down Migration
DROP TABLE post_view_deletions;
