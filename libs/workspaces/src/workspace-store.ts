import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { Platform, Scope } from '@app/contracts';
import { Account, AccountStatus, normalizeHandle } from './account';
import { generateApiKey, hashApiKey } from './api-key';
import { TokenCipher } from './token-cipher';

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  scopes: Scope[];
  displayPrefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** The caller behind a valid key. */
export interface KeyPrincipal {
  keyId: string;
  workspaceId: string;
  scopes: Scope[];
}

interface AccountRow {
  id: string;
  workspace_id: string;
  platform: Platform;
  handle: string;
  display_name: string;
  status: AccountStatus;
  created_at: Date;
}

const ACCOUNT_COLUMNS = 'id, workspace_id, platform, handle, display_name, status, created_at';

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    platform: row.platform,
    handle: row.handle,
    displayName: row.display_name,
    status: row.status,
    createdAt: row.created_at.toISOString(),
  };
}

/** Workspaces, their API keys and their connected accounts (plain tables: configuration, not domain events). */
export class WorkspaceStore {
  constructor(
    private readonly pool: Pool,
    private readonly cipher: TokenCipher,
  ) {}

  async createWorkspace(name: string): Promise<Workspace> {
    const id = randomUUID();
    const { rows } = await this.pool.query<{ created_at: Date }>('INSERT INTO workspaces (id, name) VALUES ($1, $2) RETURNING created_at', [id, name]);
    return { id, name, createdAt: rows[0].created_at.toISOString() };
  }

  async getWorkspace(id: string): Promise<Workspace | null> {
    const { rows } = await this.pool.query<{ id: string; name: string; created_at: Date }>('SELECT id, name, created_at FROM workspaces WHERE id = $1', [id]);
    return rows[0] ? { id: rows[0].id, name: rows[0].name, createdAt: rows[0].created_at.toISOString() } : null;
  }

  /** Creates a key; the plain key is returned here once and never stored. */
  async createKey(workspaceId: string, scopes: Scope[]): Promise<ApiKeyRecord & { key: string }> {
    const { key, hash, displayPrefix } = generateApiKey();
    const id = randomUUID();
    const { rows } = await this.pool.query<{ created_at: Date }>(
      'INSERT INTO api_keys (id, workspace_id, key_hash, key_prefix, scopes) VALUES ($1, $2, $3, $4, $5) RETURNING created_at',
      [id, workspaceId, hash, displayPrefix, scopes],
    );
    return { id, workspaceId, scopes, displayPrefix, createdAt: rows[0].created_at.toISOString(), revokedAt: null, key };
  }

  /** Returns whether a key was revoked by this call (false: unknown or already revoked). */
  async revokeKey(keyId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [keyId]);
    return rowCount === 1;
  }

  async authenticate(key: string): Promise<KeyPrincipal | null> {
    const { rows } = await this.pool.query<{ id: string; workspace_id: string; scopes: Scope[] }>(
      'SELECT id, workspace_id, scopes FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [hashApiKey(key)],
    );
    return rows[0] ? { keyId: rows[0].id, workspaceId: rows[0].workspace_id, scopes: rows[0].scopes } : null;
  }

  /**
   * Connects an account, or reconnects the same platform handle in the workspace
   * (keeping its id, so old posts still point at it), storing the token encrypted.
   */
  async connectAccount(input: { workspaceId: string; platform: Platform; handle: string; displayName?: string; token?: string }): Promise<Account> {
    const handle = normalizeHandle(input.handle);
    const id = randomUUID();
    const { rows } = await this.pool.query<AccountRow>(
      `INSERT INTO accounts (id, workspace_id, platform, handle, display_name, status)
       VALUES ($1, $2, $3, $4, $5, 'connected')
       ON CONFLICT (workspace_id, platform, lower(handle))
       DO UPDATE SET status = 'connected', display_name = EXCLUDED.display_name, updated_at = now()
       RETURNING ${ACCOUNT_COLUMNS}`,
      [id, input.workspaceId, input.platform, handle, input.displayName ?? handle],
    );
    const account = toAccount(rows[0]);
    if (input.token !== undefined) {
      await this.pool.query('UPDATE accounts SET credentials = $2 WHERE id = $1', [account.id, this.cipher.encrypt(input.token, account.id)]);
    }
    return account;
  }

  async disconnectAccount(accountId: string): Promise<Account | null> {
    const { rows } = await this.pool.query<AccountRow>(
      `UPDATE accounts SET status = 'disconnected', credentials = NULL, updated_at = now() WHERE id = $1 RETURNING ${ACCOUNT_COLUMNS}`,
      [accountId],
    );
    return rows[0] ? toAccount(rows[0]) : null;
  }

  async listAccounts(workspaceId: string): Promise<Account[]> {
    const { rows } = await this.pool.query<AccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE workspace_id = $1 ORDER BY platform, lower(handle)`,
      [workspaceId],
    );
    return rows.map(toAccount);
  }

  /** The decrypted platform token of an account, for the connectors; null when none is stored. */
  async accountToken(accountId: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ credentials: Buffer | null }>('SELECT credentials FROM accounts WHERE id = $1', [accountId]);
    const sealed = rows[0]?.credentials;
    return sealed ? this.cipher.decrypt(sealed, accountId) : null;
  }
}
