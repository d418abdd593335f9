-- Up Migration
-- Cursor pagination: each page of GET /api/v1/comments is a keyset seek, (commented_at, id) < the cursor's,
-- newest first. The single-filter indexes of 1700000000500 serve one filter; these serve the combined filters
-- clients page through (a platform's unanswered comments, a platform's negative ones, the unanswered negative
-- ones), so every page is an index range read, never a scan and sort of the workspace's comments.
-- Posts need none: post_views_newest and post_views_status_newest already order by (created_at DESC, id DESC).
CREATE INDEX comment_views_platform_sentiment_newest ON comment_views (workspace_id, platform, sentiment, commented_at DESC, id DESC);
CREATE INDEX comment_views_platform_unreplied_newest ON comment_views (workspace_id, platform, commented_at DESC, id DESC) WHERE NOT replied;
CREATE INDEX comment_views_sentiment_unreplied_newest ON comment_views (workspace_id, sentiment, commented_at DESC, id DESC) WHERE NOT replied;

-- Down Migration
DROP INDEX comment_views_sentiment_unreplied_newest;
DROP INDEX comment_views_platform_unreplied_newest;
DROP INDEX comment_views_platform_sentiment_newest;
