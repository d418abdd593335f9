-- Up Migration
-- Webhook endpoints of API clients and the deliveries to them (issue 14).
-- The signing secret must be usable to sign, so it is encrypted (AES-256-GCM, TOKEN_ENCRYPTION_KEY,
-- the endpoint id bound in), never hashed; the previous one keeps signing beside it for 24 hours after a rotation.
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  workspace_id text NOT NULL,
  url text NOT NULL,
  events text[] NOT NULL,
  description text,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text CHECK (disabled_reason IN ('gone', 'failing', 'client')),
  secret_sealed bytea NOT NULL,
  previous_secret_sealed bytea,
  previous_secret_expires_at timestamptz,
  -- Since when every attempt failed (null after a success): five days of it disable the endpoint.
  failing_since timestamptz,
  -- One replica at a time delivers to an endpoint, in order: the holder's lease ends here.
  lease_until timestamptz NOT NULL DEFAULT 'epoch',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_workspace ON webhook_endpoints (workspace_id, created_at);

-- One row per (endpoint, event): its id is the webhook-id header, the same on every retry, redelivery and replay.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  seq bigserial NOT NULL,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  event_type text NOT NULL,
  position text,
  payload text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  response_status integer,
  last_error text,
  delivered_at timestamptz,
  -- The retries of this delivery give up after this time (about three days after it was queued).
  give_up_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, seq) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, seq DESC);

-- Down Migration
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
