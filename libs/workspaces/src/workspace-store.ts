import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { Scope } from '@app/contracts';
import { prepared, SameMomentReads } from '@app/database';
import { generateApiKey, hashApiKey } from './api-key';

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

/** What a workspace decides for its posts (GET and PATCH /api/v1/workspace). */
export interface WorkspaceSettings {
  /** Posts written by a key without the approve scope are held for review (README, Approvals). */
  approvalRequired: boolean;
}

/** The caller behind a valid key. */
export interface KeyPrincipal {
  keyId: string;
  workspaceId: string;
  scopes: Scope[];
}

/** Workspaces and their API keys (plain tables: configuration, not domain events); accounts live in @app/accounts. */
export class WorkspaceStore {
  /**
   * Settings asked for in the same moment, read in one statement: every post command reads its
   * workspace's (approvals), so the creates of one moment share one read, as their accounts do.
   */
  private readonly settingsRows = new SameMomentReads<string, WorkspaceSettings>(async (ids) => {
    const { rows } = await this.pool.query<{ id: string; approval_required: boolean }>(prepared('SELECT id, approval_required FROM workspaces WHERE id = ANY($1::uuid[])', [ids]));
    return new Map(rows.map((row) => [row.id, { approvalRequired: row.approval_required }]));
  });

  constructor(private readonly pool: Pool) {}

  async createWorkspace(name: string): Promise<Workspace> {
    const id = randomUUID();
    const { rows } = await this.pool.query<{ created_at: Date }>('INSERT INTO workspaces (id, name) VALUES ($1, $2) RETURNING created_at', [id, name]);
    return { id, name, createdAt: rows[0].created_at.toISOString() };
  }

  async getWorkspace(id: string): Promise<Workspace | null> {
    const { rows } = await this.pool.query<{ id: string; name: string; created_at: Date }>('SELECT id, name, created_at FROM workspaces WHERE id = $1', [id]);
    return rows[0] ? { id: rows[0].id, name: rows[0].name, createdAt: rows[0].created_at.toISOString() } : null;
  }

  /** Every workspace, oldest first (ties by id, so the order is stable). */
  async listWorkspaces(): Promise<Workspace[]> {
    const { rows } = await this.pool.query<{ id: string; name: string; created_at: Date }>('SELECT id, name, created_at FROM workspaces ORDER BY created_at, id');
    return rows.map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at.toISOString() }));
  }

  /** The origins the workspace lets sign-ins send users back to (empty: any url the service's own rule takes). */
  async redirectOrigins(workspaceId: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ redirect_origins: string[] }>('SELECT redirect_origins FROM workspaces WHERE id = $1', [workspaceId]);
    return rows[0]?.redirect_origins ?? [];
  }

  /** Replaces the workspace's sign-in redirect allow list (origins, see redirectOrigin); false for an unknown workspace. */
  async setRedirectOrigins(workspaceId: string, origins: readonly string[]): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE workspaces SET redirect_origins = $2 WHERE id = $1', [workspaceId, [...new Set(origins)]]);
    return rowCount === 1;
  }

  /** The workspace's settings; null for an unknown workspace. */
  async settings(workspaceId: string): Promise<WorkspaceSettings | null> {
    return (await this.settingsRows.get(workspaceId)) ?? null;
  }

  /** Changes the settings given, keeps the others; null for an unknown workspace. */
  async updateSettings(workspaceId: string, changes: Partial<WorkspaceSettings>): Promise<WorkspaceSettings | null> {
    const { rows } = await this.pool.query<{ approval_required: boolean }>(
      'UPDATE workspaces SET approval_required = COALESCE($2, approval_required) WHERE id = $1 RETURNING approval_required',
      [workspaceId, changes.approvalRequired ?? null],
    );
    return rows[0] ? { approvalRequired: rows[0].approval_required } : null;
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
}
