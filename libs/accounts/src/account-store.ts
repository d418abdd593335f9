import { randomUUID } from 'node:crypto';
import { Pool, PoolClient } from 'pg';
import type { Platform } from '@app/contracts';
import { inTransaction, prepared } from '@app/database';
import type { CredentialKind, PlatformIdentity, SignedInAccount, StoredCredentials, TokenSet } from '@app/platforms';
import { Account, AccountStatus, LONG_LIVED_RENEW_AHEAD_MS, normalizeHandle } from './account';
import { TokenCipher } from './token-cipher';

interface AccountRow {
  id: string;
  workspace_id: string;
  platform: Platform;
  handle: string;
  display_name: string;
  status: AccountStatus;
  status_reason: string | null;
  status_since: Date;
  platform_account_id: string | null;
  instance_url: string | null;
  attributes: Record<string, string>;
  credential_kind: CredentialKind | null;
  token_expires_at: Date | null;
  refresh_token_expires_at: Date | null;
  scopes: string[];
  lifecycle_revision: string;
  /** Absent where ACCOUNT_COLUMNS were read. */
  credentials?: Buffer | null;
  created_at: Date;
}

/** What an Account shows: every column but the sealed credentials, which are read only where they are unsealed (SECRETS_COLUMNS). */
const ACCOUNT_COLUMNS = `id, workspace_id, platform, handle, display_name, status, status_reason, status_since, platform_account_id, instance_url,
  attributes, credential_kind, token_expires_at, refresh_token_expires_at, scopes, lifecycle_revision, created_at`;
const SECRETS_COLUMNS = `${ACCOUNT_COLUMNS}, credentials`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Account ids are UUIDs: anything else a client sends names no account (rather than a database error). */
function isAccountId(value: string): boolean {
  return UUID.test(value);
}

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    platform: row.platform,
    handle: row.handle,
    displayName: row.display_name,
    status: row.status,
    statusReason: row.status_reason,
    statusSince: row.status_since.toISOString(),
    platformAccountId: row.platform_account_id,
    instanceUrl: row.instance_url,
    tokenExpiresAt: row.token_expires_at?.toISOString() ?? null,
    scopes: row.scopes,
    createdAt: row.created_at.toISOString(),
  };
}

/** Everything needed to act as an account: its identity and its decrypted credentials. */
export interface AccountSecrets {
  account: Account;
  identity: PlatformIdentity;
  credentials: StoredCredentials;
}

/** The credential set as sealed in the credentials column (expiries live in their own columns). */
interface SealedCredentials {
  accessToken: string;
  refreshToken: string | null;
}

export interface ConnectRequest {
  id: string;
  workspaceId: string;
  platform: Platform;
  redirectUri: string;
  instanceUrl: string | null;
  codeVerifier: string;
}

/** What a sign-in's callback gave, waiting for the client's backend to attach it (POST /api/v1/accounts/connect/complete). */
export interface PendingConnection {
  connectionId: string;
  workspaceId: string;
  /** SHA-256 of the verifier POST /api/v1/accounts/connect answered. */
  verifierHash: Buffer;
  expiresAt: Date;
  completedAt: Date | null;
}

interface ConnectRequestRow {
  id: string;
  workspace_id: string;
  platform: Platform;
  redirect_uri: string;
  instance_url: string | null;
  code_verifier: Buffer;
}

/**
 * Connected accounts: who each is on its platform, its credentials (AES-256-GCM at rest,
 * the account id bound in), its health; sign-ins in progress; apps registered per
 * federated server. Plain tables (configuration, not domain events): the accounts
 * service appends the lifecycle events beside them.
 */
export class AccountStore {
  constructor(
    private readonly pool: Pool,
    private readonly cipher: TokenCipher,
  ) {}

  async list(workspaceId: string): Promise<Account[]> {
    return (await this.listOfWorkspaces([workspaceId])).get(workspaceId)!;
  }

  /** list() of several workspaces in one statement, by workspace id (every id given is answered; none: no accounts). */
  async listOfWorkspaces(workspaceIds: string[]): Promise<Map<string, Account[]>> {
    const lists = new Map<string, Account[]>(workspaceIds.map((id) => [id, []]));
    const { rows } = await this.pool.query<AccountRow>(
      prepared(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE workspace_id = ANY($1::uuid[]) ORDER BY workspace_id, platform, lower(handle)`, [workspaceIds]),
    );
    for (const row of rows) lists.get(row.workspace_id)!.push(toAccount(row));
    return lists;
  }

  async get(accountId: string): Promise<Account | null> {
    if (!isAccountId(accountId)) return null;
    const { rows } = await this.pool.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, [accountId]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** The account and the revision of its last lifecycle event (-1: none), whether or not it has credentials. */
  async withLifecycleRevision(accountId: string): Promise<{ account: Account; lifecycleRevision: bigint } | null> {
    if (!isAccountId(accountId)) return null;
    const { rows } = await this.pool.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, [accountId]);
    return rows[0] ? { account: toAccount(rows[0]), lifecycleRevision: BigInt(rows[0].lifecycle_revision) } : null;
  }

  /** The account with its identity and decrypted credentials; null when unknown or without credentials. */
  async secrets(accountId: string, client: Pool | PoolClient = this.pool): Promise<AccountSecrets | null> {
    if (!isAccountId(accountId)) return null;
    const { rows } = await client.query<AccountRow>(prepared(`SELECT ${SECRETS_COLUMNS} FROM accounts WHERE id = $1`, [accountId]));
    return rows[0] ? this.secretsOfRow(rows[0]) : null;
  }

  /** secrets() of several accounts in one statement, by account id (an id unknown or without credentials is absent). */
  async secretsOf(accountIds: string[]): Promise<Map<string, AccountSecrets>> {
    const ids = accountIds.filter(isAccountId);
    const found = new Map<string, AccountSecrets>();
    if (ids.length === 0) return found;
    const { rows } = await this.pool.query<AccountRow>(prepared(`SELECT ${SECRETS_COLUMNS} FROM accounts WHERE id = ANY($1::uuid[])`, [ids]));
    for (const row of rows) {
      const secrets = this.secretsOfRow(row);
      if (secrets) found.set(row.id, secrets);
    }
    return found;
  }

  private secretsOfRow(row: AccountRow): AccountSecrets | null {
    if (!row.credentials) return null;
    return {
      account: toAccount(row),
      identity: {
        platformAccountId: row.platform_account_id ?? '',
        handle: row.handle,
        displayName: row.display_name,
        instanceUrl: row.instance_url,
        attributes: row.attributes,
      },
      credentials: {
        ...this.unseal(row.credentials, row.id),
        kind: row.credential_kind ?? 'static',
        expiresAt: row.token_expires_at?.toISOString() ?? null,
        refreshTokenExpiresAt: row.refresh_token_expires_at?.toISOString() ?? null,
        scopes: row.scopes,
      },
    };
  }

  /**
   * Runs `work` holding the account's lock: the critical section of a refresh (X and TikTok
   * rotate refresh tokens, so two replicas refreshing at once would lose the account).
   * `work` sees the credentials as they are now, after any refresh that held the lock
   * before. A session advisory lock rather than a row lock: it holds no transaction open
   * across the platform call (an open transaction would hold back the event feed, which
   * waits for the oldest running transaction), and it is released if the process dies.
   */
  async withLockedSecrets<T>(accountId: string, work: (secrets: AccountSecrets | null, client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query("SELECT pg_advisory_lock(hashtextextended('account-credentials:' || $1, 0))", [accountId]);
      try {
        return await work(await this.secrets(accountId, client), client);
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtextextended('account-credentials:' || $1, 0))", [accountId]);
      }
    } finally {
      client.release();
    }
  }

  /**
   * Stores a signed-in account in a workspace: the same platform identity signing in again
   * updates its row (and keeps its id, so posts still point at it); so does a row from
   * before identities were kept with the same handle. Status becomes connected.
   * Answers the account and whether it was connected before (false: new, or back from
   * needs_reauth / disconnected).
   */
  async saveSignedIn(workspaceId: string, signedIn: SignedInAccount): Promise<{ account: Account; wasConnected: boolean; lifecycleRevision: bigint }> {
    const { platform, identity, credentials } = signedIn;
    const handle = normalizeHandle(identity.handle);
    return inTransaction(this.pool, async (client) => {
      const existing = await client.query<AccountRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE workspace_id = $1 AND platform = $2
           AND (platform_account_id = $3 OR (platform_account_id IS NULL AND lower(handle) = lower($4)))
         ORDER BY platform_account_id NULLS LAST LIMIT 1 FOR UPDATE`,
        [workspaceId, platform, identity.platformAccountId, handle],
      );
      const before = existing.rows[0];
      const id = before?.id ?? randomUUID();
      const values = [
        id, workspaceId, platform, handle, identity.displayName || handle, identity.platformAccountId, identity.instanceUrl, identity.attributes,
        credentials.kind, credentials.expiresAt, credentials.refreshTokenExpiresAt, credentials.scopes,
        this.seal({ accessToken: credentials.accessToken, refreshToken: credentials.refreshToken }, id),
      ];
      const { rows } = before
        ? await client.query<AccountRow>(
            `UPDATE accounts SET handle = $4, display_name = $5, platform_account_id = $6, instance_url = $7, attributes = $8, credential_kind = $9,
               token_expires_at = $10, refresh_token_expires_at = $11, scopes = $12, credentials = $13,
               status = 'connected', status_reason = NULL, status_since = CASE WHEN status = 'connected' THEN status_since ELSE now() END, updated_at = now()
             WHERE id = $1 AND workspace_id = $2 AND platform = $3 RETURNING ${ACCOUNT_COLUMNS}`,
            values,
          )
        : await client.query<AccountRow>(
            `INSERT INTO accounts (id, workspace_id, platform, handle, display_name, platform_account_id, instance_url, attributes, credential_kind,
               token_expires_at, refresh_token_expires_at, scopes, credentials, status)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'connected') RETURNING ${ACCOUNT_COLUMNS}`,
            values,
          );
      return { account: toAccount(rows[0]), wasConnected: before?.status === 'connected', lifecycleRevision: BigInt(rows[0].lifecycle_revision) };
    });
  }

  /**
   * Writes a renewed credential (inside withLockedSecrets). A renewal without a refresh
   * token never erases the stored one: most platforms send one only when it changes.
   */
  async saveRenewed(client: PoolClient, current: AccountSecrets, renewed: TokenSet): Promise<StoredCredentials> {
    const refreshToken = renewed.refreshToken ?? current.credentials.refreshToken;
    const refreshTokenExpiresAt = renewed.refreshToken ? renewed.refreshTokenExpiresAt : current.credentials.refreshTokenExpiresAt;
    const scopes = renewed.scopes.length > 0 ? renewed.scopes : current.credentials.scopes;
    await client.query(
      `UPDATE accounts SET credentials = $2, token_expires_at = $3, refresh_token_expires_at = $4, scopes = $5, updated_at = now() WHERE id = $1`,
      [current.account.id, this.seal({ accessToken: renewed.accessToken, refreshToken }, current.account.id), renewed.expiresAt, refreshTokenExpiresAt, scopes],
    );
    return { ...current.credentials, accessToken: renewed.accessToken, refreshToken, expiresAt: renewed.expiresAt, refreshTokenExpiresAt, scopes };
  }

  /** Fills in the identity of a row from before identities were kept (its token was read back by the platform). */
  async saveIdentity(accountId: string, identity: PlatformIdentity): Promise<void> {
    await this.pool.query(
      `UPDATE accounts SET platform_account_id = $2, display_name = $3, instance_url = $4, attributes = $5, updated_at = now() WHERE id = $1`,
      [accountId, identity.platformAccountId, identity.displayName, identity.instanceUrl, identity.attributes],
    );
  }

  /** Records a lifecycle change (after its event was appended at `revision`). Disconnecting drops the credentials. */
  async setStatus(accountId: string, status: AccountStatus, reason: string | null, revision: bigint): Promise<Account | null> {
    const { rows } = await this.pool.query<AccountRow>(
      `UPDATE accounts SET status = $2, status_reason = $3, lifecycle_revision = $4, status_since = now(), updated_at = now()
         ${status === 'disconnected' ? ', credentials = NULL, token_expires_at = NULL, refresh_token_expires_at = NULL' : ''}
       WHERE id = $1 RETURNING ${ACCOUNT_COLUMNS}`,
      [accountId, status, reason, revision.toString()],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** Records that the account's events are at `revision` (after AccountConnected was appended for a saved sign-in). */
  async setLifecycleRevision(accountId: string, revision: bigint): Promise<void> {
    await this.pool.query('UPDATE accounts SET lifecycle_revision = $2 WHERE id = $1', [accountId, revision.toString()]);
  }

  /** Connected accounts whose token is due for renewal at `now` (see renewAheadMs): the refresher's work list, soonest first. */
  async dueForRenewal(now: Date, shortAheadMs: number, limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM accounts WHERE status = 'connected' AND token_expires_at IS NOT NULL
         AND token_expires_at < $1::timestamptz + CASE WHEN credential_kind = 'long_lived' THEN $2::bigint ELSE $3::bigint END * interval '1 millisecond'
       ORDER BY token_expires_at LIMIT $4`,
      [now, LONG_LIVED_RENEW_AHEAD_MS, shortAheadMs, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Rows from before identities were kept that still hold a token and have not been tried yet (migration 900 marks them identity_unknown). */
  async withoutIdentity(limit: number): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM accounts WHERE platform_account_id IS NULL AND credentials IS NOT NULL AND status = 'needs_reauth' AND status_reason = 'identity_unknown' LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  /** Such a row's token told us nothing usable: it waits for its user to connect it again, and is not tried again. */
  async giveUpIdentifying(accountId: string, reason: string): Promise<void> {
    await this.pool.query(`UPDATE accounts SET status_reason = $2, updated_at = now() WHERE id = $1 AND status = 'needs_reauth' AND platform_account_id IS NULL`, [accountId, reason]);
  }

  async createConnectRequest(request: Omit<ConnectRequest, 'id'> & { verifierHash: Buffer }, expiresAt: Date): Promise<string> {
    const id = randomUUID();
    await this.pool.query(
      `INSERT INTO account_connect_requests (id, workspace_id, platform, redirect_uri, instance_url, code_verifier, verifier_hash, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, request.workspaceId, request.platform, request.redirectUri, request.instanceUrl, this.cipher.encrypt(request.codeVerifier, id), request.verifierHash, expiresAt],
    );
    return id;
  }

  /** A sign-in in progress (not yet called back, not expired), left as it is; null otherwise. */
  async openConnectRequest(id: string): Promise<ConnectRequest | null> {
    if (!isAccountId(id)) return null;
    const { rows } = await this.pool.query<ConnectRequestRow>(
      `SELECT id, workspace_id, platform, redirect_uri, instance_url, code_verifier FROM account_connect_requests
       WHERE id = $1 AND used_at IS NULL AND expires_at > now() AND verifier_hash IS NOT NULL`,
      [id],
    );
    return rows[0] ? this.toConnectRequest(rows[0]) : null;
  }

  /** Spends a sign-in in progress: once, before it expires; null otherwise (and for one started without a verifier, before they existed). */
  async spendConnectRequest(id: string): Promise<ConnectRequest | null> {
    if (!isAccountId(id)) return null;
    const { rows } = await this.pool.query<ConnectRequestRow>(
      `UPDATE account_connect_requests SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > now() AND verifier_hash IS NOT NULL
       RETURNING id, workspace_id, platform, redirect_uri, instance_url, code_verifier`,
      [id],
    );
    return rows[0] ? this.toConnectRequest(rows[0]) : null;
  }

  private toConnectRequest(row: ConnectRequestRow): ConnectRequest {
    return { id: row.id, workspaceId: row.workspace_id, platform: row.platform, redirectUri: row.redirect_uri, instanceUrl: row.instance_url, codeVerifier: this.cipher.decrypt(row.code_verifier, row.id) };
  }

  /** Holds what a spent sign-in gave (sealed, the connection id bound in) until it is completed or expires. */
  async holdConnection(requestId: string, connectionId: string, signedIn: SignedInAccount[], expiresAt: Date): Promise<void> {
    await this.pool.query(
      'UPDATE account_connect_requests SET connection_id = $2, signed_in = $3, connection_expires_at = $4 WHERE id = $1',
      [requestId, connectionId, this.cipher.encrypt(JSON.stringify(signedIn), `connection:${connectionId}`), expiresAt],
    );
  }

  /** A connection the callback held, completed or not (null: no such id). */
  async pendingConnection(connectionId: string): Promise<PendingConnection | null> {
    if (!isAccountId(connectionId)) return null;
    const { rows } = await this.pool.query<{ connection_id: string; workspace_id: string; verifier_hash: Buffer; connection_expires_at: Date; completed_at: Date | null }>(
      'SELECT connection_id, workspace_id, verifier_hash, connection_expires_at, completed_at FROM account_connect_requests WHERE connection_id = $1',
      [connectionId],
    );
    const row = rows[0];
    return row ? { connectionId: row.connection_id, workspaceId: row.workspace_id, verifierHash: row.verifier_hash, expiresAt: row.connection_expires_at, completedAt: row.completed_at } : null;
  }

  /**
   * Marks a connection completed and hands over what it held, once: null when it was already
   * completed (by a concurrent call too) or has expired at `now`. The sealed tokens are dropped
   * from the row at the same time; from here on they live on the accounts only.
   */
  async takeConnection(connectionId: string, now: Date): Promise<{ workspaceId: string; signedIn: SignedInAccount[] } | null> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ workspace_id: string; signed_in: Buffer }>(
        `SELECT workspace_id, signed_in FROM account_connect_requests
         WHERE connection_id = $1 AND completed_at IS NULL AND connection_expires_at > $2 AND signed_in IS NOT NULL FOR UPDATE`,
        [connectionId, now],
      );
      const row = rows[0];
      if (!row) return null;
      await client.query('UPDATE account_connect_requests SET completed_at = $2, signed_in = NULL WHERE connection_id = $1', [connectionId, now]);
      return { workspaceId: row.workspace_id, signedIn: JSON.parse(this.cipher.decrypt(row.signed_in, `connection:${connectionId}`)) as SignedInAccount[] };
    });
  }

  /** Forgets the tokens of connections nobody completed in time (the row stays, so a late completion is still told connection_expired). */
  async dropExpiredConnections(now: Date): Promise<number> {
    const { rowCount } = await this.pool.query('UPDATE account_connect_requests SET signed_in = NULL WHERE signed_in IS NOT NULL AND connection_expires_at <= $1', [now]);
    return rowCount ?? 0;
  }

  /** Our app as registered on a federated server (Mastodon), or null. */
  async registeredApp(platform: Platform, instanceUrl: string): Promise<{ clientId: string; clientSecret: string | null; redirectUri: string } | null> {
    const { rows } = await this.pool.query<{ client_id: string; client_secret: Buffer | null; redirect_uri: string }>(
      'SELECT client_id, client_secret, redirect_uri FROM platform_apps WHERE platform = $1 AND instance_url = $2',
      [platform, instanceUrl],
    );
    const row = rows[0];
    if (!row) return null;
    return { clientId: row.client_id, clientSecret: row.client_secret ? this.cipher.decrypt(row.client_secret, `${platform}:${instanceUrl}`) : null, redirectUri: row.redirect_uri };
  }

  /** Remembers an app registration; the first one stored wins (two replicas registering at once keep one). */
  async saveRegisteredApp(platform: Platform, instanceUrl: string, app: { clientId: string; clientSecret: string | null; redirectUri: string }): Promise<void> {
    await this.pool.query(
      `INSERT INTO platform_apps (platform, instance_url, client_id, client_secret, redirect_uri) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [platform, instanceUrl, app.clientId, app.clientSecret ? this.cipher.encrypt(app.clientSecret, `${platform}:${instanceUrl}`) : null, app.redirectUri],
    );
  }

  /**
   * Forgets the app registrations on the servers under `origin` (that origin itself or a path below it):
   * npm start's sandbox is a new server at every start, which knows none of the apps registered on the last one.
   */
  async forgetRegisteredAppsUnder(origin: string): Promise<number> {
    const { rowCount } = await this.pool.query(`DELETE FROM platform_apps WHERE instance_url = $1 OR starts_with(instance_url, $1 || '/')`, [origin]);
    return rowCount ?? 0;
  }

  private seal(credentials: SealedCredentials, accountId: string): Buffer {
    return this.cipher.encrypt(JSON.stringify(credentials), accountId);
  }

  /** A credential set, or (rows from before credential sets) a bare access token. */
  private unseal(sealed: Buffer, accountId: string): SealedCredentials {
    const plain = this.cipher.decrypt(sealed, accountId);
    if (plain.startsWith('{')) {
      const parsed = JSON.parse(plain) as SealedCredentials;
      return { accessToken: parsed.accessToken, refreshToken: parsed.refreshToken ?? null };
    }
    return { accessToken: plain, refreshToken: null };
  }
}
