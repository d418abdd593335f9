import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { TokenCipher } from '@app/accounts';
import { WebhookEndpointView, WebhookEventType } from '@app/contracts';
import { ENDPOINTS_CHANGED_CHANNEL } from './workspaces-with-endpoints';

/** How long a rotated-out secret keeps signing beside the new one (issue 14: 24 hours). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60_000;

export interface WebhookEndpoint extends WebhookEndpointView {
  workspaceId: string;
  failingSince: Date | null;
}

interface EndpointRow {
  id: string;
  workspace_id: string;
  url: string;
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  disabled_reason: WebhookEndpoint['disabledReason'];
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, workspace_id, url, events, description, enabled, disabled_reason, failing_since, created_at, updated_at';

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** What the API shows of an endpoint (no workspace, no failure bookkeeping). */
export function toEndpointView(endpoint: WebhookEndpoint): WebhookEndpointView {
  const { workspaceId: _workspace, failingSince: _failing, ...view } = endpoint;
  return view;
}

export interface EndpointChanges {
  url?: string;
  events?: WebhookEventType[];
  description?: string | null;
  enabled?: boolean;
}

/**
 * Webhook endpoints in PostgreSQL, each in one workspace (every read and write
 * names it, so a key never reaches another workspace's endpoint). Secrets are
 * sealed with the credentials cipher, the endpoint id bound in.
 */
export class WebhookEndpointStore {
  constructor(
    private readonly pool: Pool,
    private readonly cipher: TokenCipher,
  ) {}

  async create(workspaceId: string, fields: { url: string; events: WebhookEventType[]; description: string | null }, secret: string, now: Date): Promise<WebhookEndpoint> {
    const id = `whep_${randomUUID().replace(/-/g, '')}`;
    // The NOTIFY goes out when the insert commits: every replica's WorkspacesWithEndpoints learns of the workspace before the caller does.
    const { rows } = await this.pool.query<EndpointRow>(
      `WITH written AS (
         INSERT INTO webhook_endpoints (id, workspace_id, url, events, description, secret_sealed, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${COLUMNS})
       SELECT written.*, pg_notify($8, written.workspace_id::text) FROM written`,
      [id, workspaceId, fields.url, fields.events, fields.description, this.cipher.encrypt(secret, id), now, ENDPOINTS_CHANGED_CHANNEL],
    );
    return toEndpoint(rows[0]);
  }

  async list(workspaceId: string): Promise<WebhookEndpoint[]> {
    const { rows } = await this.pool.query<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 ORDER BY created_at, id`, [workspaceId]);
    return rows.map(toEndpoint);
  }

  async get(workspaceId: string, id: string): Promise<WebhookEndpoint | null> {
    const { rows } = await this.pool.query<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  async byId(id: string): Promise<WebhookEndpoint | null> {
    const { rows } = await this.pool.query<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1`, [id]);
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  /** Enabling again clears the reason and the failure streak; disabling through the API records `client`. */
  async update(workspaceId: string, id: string, changes: EndpointChanges, now: Date): Promise<WebhookEndpoint | null> {
    const enabling = changes.enabled === true;
    const disabling = changes.enabled === false;
    // Enabled again, or subscribed to more: announced as a creation is (WorkspacesWithEndpoints).
    const { rows } = await this.pool.query<EndpointRow>(
      `WITH written AS (UPDATE webhook_endpoints SET
         url = COALESCE($3, url),
         events = COALESCE($4, events),
         description = CASE WHEN $5 THEN $6 ELSE description END,
         enabled = COALESCE($7, enabled),
         disabled_reason = CASE WHEN $8 THEN NULL WHEN $9 THEN 'client' ELSE disabled_reason END,
         failing_since = CASE WHEN $8 THEN NULL ELSE failing_since END,
         updated_at = $10
       WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS})
       SELECT written.*, pg_notify($11, written.workspace_id::text) FROM written`,
      [workspaceId, id, changes.url ?? null, changes.events ?? null, 'description' in changes, changes.description ?? null, changes.enabled ?? null, enabling, disabling, now, ENDPOINTS_CHANGED_CHANNEL],
    );
    return rows[0] ? toEndpoint(rows[0]) : null;
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM webhook_endpoints WHERE workspace_id = $1 AND id = $2', [workspaceId, id]);
    return (rowCount ?? 0) > 0;
  }

  /** A new secret; the current one moves aside and keeps signing until the returned time. */
  async rotateSecret(workspaceId: string, id: string, secret: string, now: Date): Promise<{ endpoint: WebhookEndpoint; previousSecretExpiresAt: Date } | null> {
    const previousSecretExpiresAt = new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS);
    const { rows } = await this.pool.query<EndpointRow>(
      `UPDATE webhook_endpoints SET previous_secret_sealed = secret_sealed, previous_secret_expires_at = $3, secret_sealed = $4, updated_at = $5
       WHERE workspace_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [workspaceId, id, previousSecretExpiresAt, this.cipher.encrypt(secret, id), now],
    );
    return rows[0] ? { endpoint: toEndpoint(rows[0]), previousSecretExpiresAt } : null;
  }

  /** The secrets a delivery is signed with now: the current one, and the previous one inside its grace period. */
  async signingSecrets(id: string, now: Date): Promise<string[]> {
    const { rows } = await this.pool.query<{ secret_sealed: Buffer; previous_secret_sealed: Buffer | null; previous_secret_expires_at: Date | null }>(
      'SELECT secret_sealed, previous_secret_sealed, previous_secret_expires_at FROM webhook_endpoints WHERE id = $1',
      [id],
    );
    const row = rows[0];
    if (!row) return [];
    const secrets = [this.cipher.decrypt(row.secret_sealed, id)];
    if (row.previous_secret_sealed && row.previous_secret_expires_at && row.previous_secret_expires_at > now) secrets.push(this.cipher.decrypt(row.previous_secret_sealed, id));
    return secrets;
  }

  /** The workspace's enabled endpoints subscribed to `type`. */
  async subscribers(workspaceId: string, type: WebhookEventType): Promise<WebhookEndpoint[]> {
    const { rows } = await this.pool.query<EndpointRow>(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 AND enabled AND $2 = ANY(events) ORDER BY created_at, id`,
      [workspaceId, type],
    );
    return rows.map(toEndpoint);
  }

  async disable(id: string, reason: 'gone' | 'failing', now: Date): Promise<void> {
    await this.pool.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, updated_at = $3 WHERE id = $1`, [id, reason, now]);
  }

  /** Records a failed attempt; returns since when the endpoint has failed every attempt. */
  async markFailing(id: string, now: Date): Promise<Date> {
    const { rows } = await this.pool.query<{ failing_since: Date }>(
      'UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2) WHERE id = $1 RETURNING failing_since',
      [id, now],
    );
    return rows[0]?.failing_since ?? now;
  }

  /** The endpoint asked to be left alone (429 / 503 with Retry-After): claimDue passes it over until `until`. */
  async throttle(id: string, until: Date): Promise<void> {
    await this.pool.query('UPDATE webhook_endpoints SET throttled_until = $2 WHERE id = $1', [id, until]);
  }

  async markSucceeded(id: string): Promise<void> {
    await this.pool.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', [id]);
  }

  /**
   * Takes up to `limit` enabled endpoints with a due delivery, no live lease (another
   * replica delivering to it) and not throttled, leasing them until `leaseUntil`: one
   * deliverer per endpoint.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number, except: readonly string[]): Promise<string[]> {
    if (limit <= 0) return [];
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE webhook_endpoints SET lease_until = $2 WHERE id IN (
         SELECT e.id FROM webhook_endpoints e
         WHERE e.enabled AND e.lease_until <= $1 AND e.throttled_until <= $1 AND NOT (e.id = ANY($4))
           AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= $1)
         ORDER BY e.lease_until LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [now, leaseUntil, limit, except],
    );
    return rows.map((row) => row.id);
  }

  async extendLease(id: string, leaseUntil: Date): Promise<void> {
    await this.pool.query('UPDATE webhook_endpoints SET lease_until = $2 WHERE id = $1', [id, leaseUntil]);
  }

  async releaseLease(id: string): Promise<void> {
    await this.pool.query(`UPDATE webhook_endpoints SET lease_until = 'epoch' WHERE id = $1`, [id]);
  }
}
