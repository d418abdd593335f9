import { Pool } from 'pg';
import { ConnectLinkBrand, Platform } from '@app/contracts';

/** A connect link as stored: what its signed url cannot carry. */
export interface ConnectLink {
  id: string;
  workspaceId: string;
  redirectUri: string;
  /** null: every platform. */
  platforms: Platform[] | null;
  brand: ConnectLinkBrand | null;
  expiresAt: Date;
  revokedAt: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface LinkRow {
  id: string;
  workspace_id: string;
  redirect_uri: string;
  platforms: Platform[] | null;
  brand: ConnectLinkBrand | null;
  expires_at: Date;
  revoked_at: Date | null;
}

/** connect_links and the accounts connected through each (connect_link_accounts). */
export class ConnectLinkStore {
  constructor(private readonly pool: Pool) {}

  async create(link: Omit<ConnectLink, 'revokedAt'>): Promise<void> {
    await this.pool.query('INSERT INTO connect_links (id, workspace_id, redirect_uri, platforms, brand, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      link.id,
      link.workspaceId,
      link.redirectUri,
      link.platforms,
      link.brand === null ? null : JSON.stringify(link.brand),
      link.expiresAt,
    ]);
  }

  async get(id: string): Promise<ConnectLink | null> {
    if (!UUID.test(id)) return null;
    const { rows } = await this.pool.query<LinkRow>('SELECT id, workspace_id, redirect_uri, platforms, brand, expires_at, revoked_at FROM connect_links WHERE id = $1', [id]);
    const row = rows[0];
    return row
      ? { id: row.id, workspaceId: row.workspace_id, redirectUri: row.redirect_uri, platforms: row.platforms, brand: row.brand, expiresAt: row.expires_at, revokedAt: row.revoked_at }
      : null;
  }

  /** Revokes the workspace's link (again: nothing changes); false when the workspace has no such link. */
  async revoke(workspaceId: string, id: string, now: Date): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const { rowCount } = await this.pool.query('UPDATE connect_links SET revoked_at = COALESCE(revoked_at, $3) WHERE id = $1 AND workspace_id = $2', [id, workspaceId, now]);
    return (rowCount ?? 0) > 0;
  }

  async addAccounts(linkId: string, accountIds: string[]): Promise<void> {
    if (accountIds.length === 0) return;
    await this.pool.query('INSERT INTO connect_link_accounts (link_id, account_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING', [linkId, accountIds]);
  }

  /** The accounts connected through the link, in the order they were. */
  async accountIds(linkId: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ account_id: string }>('SELECT account_id FROM connect_link_accounts WHERE link_id = $1 ORDER BY connected_at, account_id', [linkId]);
    return rows.map((row) => row.account_id);
  }
}
