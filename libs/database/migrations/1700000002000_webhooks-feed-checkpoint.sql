-- Up Migration
-- The webhooks service's live fan-out now follows the event store's feed under its own checkpoint
-- (`webhooks`) instead of a JetStream consumer. Without a checkpoint it would start at the beginning of
-- the feed and queue, for today's endpoints, every event stored before they existed, which the consumer
-- had long passed over. It starts where the relay stands: the events the relay has published, which the
-- consumer handled within moments of their publication. An event the consumer had not yet handled at
-- the upgrade is one the replay endpoint (POST /api/v1/webhooks/{id}/replay, since the upgrade's time)
-- queues again without duplicating anything delivered.
INSERT INTO checkpoints (name, position)
SELECT 'webhooks', position FROM checkpoints WHERE name = 'relay:jetstream'
ON CONFLICT (name) DO NOTHING;

-- Down Migration
DELETE FROM checkpoints WHERE name = 'webhooks';
