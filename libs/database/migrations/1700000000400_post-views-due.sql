-- Up Migration
-- The scheduler's question: which scheduled posts are due?
CREATE INDEX post_views_due ON post_views (scheduled_at) WHERE status = 'scheduled';

-- Down Migration
DROP INDEX post_views_due;
