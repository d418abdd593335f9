-- Up Migration
-- A post's thread: its parts as given ([] for none), whether over-long content is split into one,
-- and per account id the recorded parts ({index, status, platformPostId | error}, in order).
ALTER TABLE post_views ADD COLUMN thread jsonb NOT NULL DEFAULT '[]';
ALTER TABLE post_views ADD COLUMN auto_split boolean NOT NULL DEFAULT false;
ALTER TABLE post_views ADD COLUMN thread_results jsonb NOT NULL DEFAULT '{}';

-- Down Migration
ALTER TABLE post_views DROP COLUMN thread_results;
ALTER TABLE post_views DROP COLUMN auto_split;
ALTER TABLE post_views DROP COLUMN thread;
