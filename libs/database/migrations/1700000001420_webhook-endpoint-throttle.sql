-- Up Migration
-- An endpoint that answered 429 or 503 with Retry-After is left alone until then (Standard Webhooks,
-- "Delivery success and failure": throttle on 429, take Retry-After into account): no delivery of it is
-- attempted before this time, not only the one that was answered. 'epoch': not throttled.
ALTER TABLE webhook_endpoints ADD COLUMN throttled_until timestamptz NOT NULL DEFAULT 'epoch';

-- Down Migration
ALTER TABLE webhook_endpoints DROP COLUMN throttled_until;
