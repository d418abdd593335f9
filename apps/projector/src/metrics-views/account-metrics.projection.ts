import { PoolClient } from 'pg';
import { AccountMetricsEvent } from '@app/contracts';
import { RecordedEvent } from '@app/event-store';
import { applyInRevisionOrder, ApplyOutcome, ReadStream, skipReason } from '../in-revision-order';
import { Tables } from '../read-model';

/** The account_metrics read model's tables: one row per account stream (the latest count), every observation. */
export type AccountMetricsTables = Tables<'accountMetrics' | 'observations'>;

const STREAM_PREFIX = 'accountmetric-';

interface AccountRow {
  id: string;
  workspace_id: string;
  platform: string;
  followers: number | null;
  collected_at: string | null;
  version: number;
}

/** A batch's account rows folded in memory, each changed row written once, the observations inserted. */
class AccountMetricsFold {
  private readonly rows = new Map<string, AccountRow>();
  private readonly changed = new Set<string>();
  private readonly observations: Array<{ account_id: string; observed_at: string; followers: number | null }> = [];

  constructor(
    private readonly client: PoolClient,
    private readonly tables: AccountMetricsTables,
  ) {}

  async load(accountIds: string[]): Promise<void> {
    const fresh = accountIds.filter((id) => !this.rows.has(id));
    if (fresh.length === 0) return;
    const { rows } = await this.client.query<AccountRow>(`SELECT * FROM ${this.tables.accountMetrics} WHERE id = ANY($1::uuid[]) FOR UPDATE`, [fresh]);
    for (const row of rows) this.rows.set(row.id, { ...row, followers: row.followers === null ? null : Number(row.followers) });
  }

  async apply(recorded: RecordedEvent): Promise<ApplyOutcome> {
    const accountId = recorded.streamId.slice(STREAM_PREFIX.length);
    await this.load([accountId]);
    const event = { type: recorded.type, data: recorded.data } as AccountMetricsEvent;
    let row = this.rows.get(accountId);
    if (!row && recorded.revision === 0n) {
      row = { id: accountId, workspace_id: recorded.metadata.workspaceId, platform: event.data.platform, followers: null, collected_at: null, version: 0 };
      this.rows.set(accountId, row);
    }
    const skipped = skipReason(row?.version, recorded.revision);
    if (skipped || !row) return skipped ?? 'absent';
    row.followers = event.data.followers;
    row.collected_at = event.data.observedAt;
    row.version += 1;
    this.changed.add(accountId);
    this.observations.push({ account_id: accountId, observed_at: event.data.observedAt, followers: event.data.followers });
    return 'applied';
  }

  async write(): Promise<void> {
    if (this.changed.size > 0) {
      await this.client.query(
        `INSERT INTO ${this.tables.accountMetrics} (id, workspace_id, platform, followers, collected_at, version)
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, workspace_id uuid, platform text, followers bigint, collected_at timestamptz, version integer)
         ON CONFLICT (id) DO UPDATE SET followers = EXCLUDED.followers, collected_at = EXCLUDED.collected_at, version = EXCLUDED.version`,
        [JSON.stringify([...this.changed].map((id) => this.rows.get(id)))],
      );
    }
    if (this.observations.length > 0) {
      await this.client.query(
        `INSERT INTO ${this.tables.observations} (account_id, observed_at, followers)
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(account_id uuid, observed_at timestamptz, followers bigint)
         ON CONFLICT DO NOTHING`,
        [JSON.stringify(this.observations)],
      );
    }
  }
}

/** Applies a batch of the feed to the account_metrics tables (live or a rebuild's), each account stream in revision order. */
export async function projectAccountMetricsEvents(client: PoolClient, events: RecordedEvent[], tables: AccountMetricsTables, readStream: ReadStream): Promise<void> {
  const ours = events.filter((e) => e.streamId.startsWith(STREAM_PREFIX));
  if (ours.length === 0) return;
  const fold = new AccountMetricsFold(client, tables);
  await fold.load([...new Set(ours.map((e) => e.streamId.slice(STREAM_PREFIX.length)))]);
  await applyInRevisionOrder(ours, (event) => fold.apply(event), readStream);
  await fold.write();
}
