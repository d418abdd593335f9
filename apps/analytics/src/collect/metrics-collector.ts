import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { accountMetricsStreamId, AccountMetricsEvent, METRICS_EVENT_VERSION, Platform, PLATFORMS, postMetricsStreamId, PostMetricsEvent } from '@app/contracts';
import { AccountCredentials, isUnavailable } from '@app/credentials';
import { PG_POOL } from '@app/database';
import { foldEvents } from '@app/decider';
import { AppendBatcher, toNewEvents } from '@app/event-store';
import { ConnectorRegistry, PlatformCallFailed } from '@app/platforms';
import { metricsCollections } from '@app/observability';
import { PeriodicTask } from '@app/runtime';
import { nextCollectionAt } from '../domain/collection-schedule';
import { decide, evolve, ItemMetricsCommand, ItemMetricsState } from '../domain/item-metrics.decider';
import { CollectionStore, DueAccount, DueItem } from './collection-store';
import { RateLimitBackoff } from './rate-limit-backoff';

/** One collector at a time across replicas (a Postgres advisory lock): the platforms' limits are per account, not per replica. */
const COLLECTOR_LOCK = 'analytics-collector';

/** What one pass did: the bench and the tests read it. */
export interface CollectionPass {
  itemsCollected: number;
  itemsRefused: number;
  accountsCollected: number;
  /** Platform calls made (each fetch, a renewed token's retry included as one). */
  platformCalls: number;
  /** Accounts left alone this pass because of an earlier rate limit. */
  accountsPaused: number;
}

const emptyPass = (): CollectionPass => ({ itemsCollected: 0, itemsRefused: 0, accountsCollected: 0, platformCalls: 0, accountsPaused: 0 });

/** Runs `work` over `inputs`, at most `limit` at a time. */
async function eachWithLimit<T>(inputs: T[], limit: number, work: (input: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) await work(inputs[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, inputs.length) }, worker));
}

/**
 * Collects the numbers of published items on their schedule (config.analyticsSchedule)
 * and each connected account's follower count (config.analyticsFollowersIntervalMs),
 * and records them as events. Accounts are collected side by side and apart: one
 * account's refusal, rate limit or slow platform never holds back another's. Each
 * call is made as the account with live credentials (AccountCredentials.run renews a
 * refused token once). A rate-limited account pauses (RateLimitBackoff) and its items
 * stay due; a refusal that will not pass (a missing scope) is recorded once
 * (ItemMetricsCollectionFailed) and the item keeps its schedule (signing in again
 * grants the scope); an outage is retried at the item's next slot.
 */
@Injectable()
export class MetricsCollector implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsCollector.name);
  private readonly task: PeriodicTask;
  readonly backoff = new RateLimitBackoff();
  /** Every pass since start, summed (the bench reads it). */
  readonly totals: CollectionPass = emptyPass();

  constructor(
    private readonly config: AppConfig,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly store: CollectionStore,
    private readonly connectors: ConnectorRegistry,
    private readonly credentials: AccountCredentials,
    private readonly appends: AppendBatcher,
  ) {
    this.task = new PeriodicTask('analytics collection', Math.max(10, config.analyticsTickMs), () => this.pass(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /** The platforms whose connector reads items' numbers (and accounts'). */
  private platforms(kind: 'fetchItemMetrics' | 'fetchAccountMetrics'): Platform[] {
    return PLATFORMS.filter((platform) => typeof this.connectors.get(platform)[kind] === 'function');
  }

  /** One pass: finds new items and accounts, collects what is due. Null when another replica holds the collector. */
  async pass(): Promise<CollectionPass | null> {
    const lock = await this.pool.connect();
    try {
      const { rows } = await lock.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [COLLECTOR_LOCK]);
      if (!rows[0].locked) return null;
      try {
        return await this.collectDue();
      } finally {
        await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [COLLECTOR_LOCK]);
      }
    } finally {
      lock.release();
    }
  }

  private async collectDue(): Promise<CollectionPass> {
    const now = this.config.now();
    const schedule = this.config.analyticsSchedule;
    const end = schedule.steps.at(-1)?.untilMs ?? 0;
    await this.store.discoverItems(this.platforms('fetchItemMetrics'), new Date(now.getTime() - end), schedule);
    await this.store.discoverAccounts(this.platforms('fetchAccountMetrics'), now);
    const pass = emptyPass();
    const items = await this.store.dueItems(now, this.config.analyticsBatchSize);
    const accounts = await this.store.dueAccounts(now, this.config.analyticsBatchSize);
    // One queue per account: its items and its follower count, one call at a time.
    const work = new Map<string, { items: DueItem[]; account: DueAccount | null }>();
    for (const due of items) {
      const key = RateLimitBackoff.key(due.item.platform, due.item.accountId);
      work.set(key, { items: [...(work.get(key)?.items ?? []), due], account: null });
    }
    for (const account of accounts) {
      const key = RateLimitBackoff.key(account.platform, account.accountId);
      work.set(key, { items: work.get(key)?.items ?? [], account });
    }
    await eachWithLimit([...work.entries()], this.config.analyticsAccountsInFlight, async ([key, queue]) => {
      try {
        await this.collectAccount(key, queue.items, queue.account, pass);
      } catch (error) {
        // Our own storage failing for one account is logged; the others go on.
        this.logger.warn(`analytics collection for ${key} stopped this pass: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    for (const name of Object.keys(pass) as Array<keyof CollectionPass>) this.totals[name] += pass[name];
    return pass;
  }

  private async collectAccount(key: string, items: DueItem[], account: DueAccount | null, pass: CollectionPass): Promise<void> {
    if (this.backoff.isPaused(key, Date.now())) {
      pass.accountsPaused++;
      return;
    }
    for (const due of items) {
      try {
        if (!(await this.collectItem(key, due, pass))) return;
      } catch (error) {
        // Anything unforeseen (a connector's bug, a lost answer): this item waits for its next slot, the account's others go on.
        this.logger.warn(`analytics collection of ${due.item.platform} item ${due.item.platformPostId} failed: ${error instanceof Error ? error.message : String(error)}`);
        const next = nextCollectionAt(this.config.analyticsSchedule, due.item.publishedAt, this.config.now());
        await this.store.itemCollected(due.item, due.state, next).catch(() => undefined);
      }
    }
    if (account) await this.collectFollowers(key, account, pass);
  }

  /** Collects one item; false when the account must wait (rate limited, or unable to act) and its other items with it. */
  private async collectItem(key: string, due: DueItem, pass: CollectionPass): Promise<boolean> {
    const { item } = due;
    const connector = this.connectors.get(item.platform);
    const now = this.config.now();
    const next = () => nextCollectionAt(this.config.analyticsSchedule, item.publishedAt, now);
    let command: ItemMetricsCommand;
    try {
      pass.platformCalls++;
      const reading = await this.credentials.run(item.accountId, (acting) => connector.fetchItemMetrics!(acting, item.platformPostId));
      if (isUnavailable(reading)) {
        metricsCollections.inc({ platform: item.platform, kind: 'item', outcome: 'unavailable' });
        // Disconnected, or waiting for its user to sign in again: tried again at the item's next slot.
        await this.store.itemCollected(item, due.state, next());
        return false;
      }
      this.backoff.succeeded(key);
      command = { type: 'RecordItemMetrics', item, reading, observedAt: now };
      pass.itemsCollected++;
      metricsCollections.inc({ platform: item.platform, kind: 'item', outcome: 'collected' });
    } catch (error) {
      if (!(error instanceof PlatformCallFailed)) throw error;
      const outcome = error.error.code === 'rate_limited' ? 'rate_limited' : error.error.retryable ? 'failed' : 'refused';
      metricsCollections.inc({ platform: item.platform, kind: 'item', outcome });
      if (error.error.code === 'rate_limited') {
        const pause = this.backoff.rateLimited(key, Date.now(), error.error.retryAfterMs);
        this.logger.warn(`${item.platform} rate-limited account ${item.accountId}; its numbers are collected again in ${Math.round(pause / 1000)} s`);
        return false;
      }
      if (error.error.retryable) {
        this.logger.warn(`${item.platform} numbers of ${item.platformPostId} not read this time: ${error.message}`);
        await this.store.itemCollected(item, due.state, next());
        return true;
      }
      command = { type: 'RecordCollectionRefused', item, code: error.error.code, message: error.error.message, failedAt: now };
      pass.itemsRefused++;
    }
    const events = decide(command, due.state);
    await this.record(postMetricsStreamId(item.postId), item.workspaceId, events);
    const state: ItemMetricsState = foldEvents({ evolve, initialState: () => due.state }, events);
    await this.store.itemCollected(item, state, next());
    return true;
  }

  private async collectFollowers(key: string, account: DueAccount, pass: CollectionPass): Promise<void> {
    const connector = this.connectors.get(account.platform);
    const now = this.config.now();
    const next = new Date(now.getTime() + this.config.analyticsFollowersIntervalMs);
    try {
      pass.platformCalls++;
      const reading = await this.credentials.run(account.accountId, (acting) => connector.fetchAccountMetrics!(acting));
      if (isUnavailable(reading)) return this.store.accountCollected(account.accountId, null, next);
      this.backoff.succeeded(key);
      const event: AccountMetricsEvent = {
        type: 'AccountMetricsObserved',
        data: { accountId: account.accountId, platform: account.platform, followers: reading.followers, raw: reading.raw, observedAt: now.toISOString() },
      };
      await this.record(accountMetricsStreamId(account.accountId), account.workspaceId, [event]);
      await this.store.accountCollected(account.accountId, now, next);
      pass.accountsCollected++;
      metricsCollections.inc({ platform: account.platform, kind: 'followers', outcome: 'collected' });
    } catch (error) {
      if (!(error instanceof PlatformCallFailed)) throw error;
      metricsCollections.inc({ platform: account.platform, kind: 'followers', outcome: error.error.code === 'rate_limited' ? 'rate_limited' : error.error.retryable ? 'failed' : 'refused' });
      if (error.error.code === 'rate_limited') {
        this.backoff.rateLimited(key, Date.now(), error.error.retryAfterMs);
        return;
      }
      this.logger.warn(`${account.platform} follower count of account ${account.accountId} not read: ${error.message}`);
      await this.store.accountCollected(account.accountId, null, next);
    }
  }

  /** Observations are independent facts: appended at the stream's end, whatever is there ('any'). */
  private async record(streamId: string, workspaceId: string, events: Array<PostMetricsEvent | AccountMetricsEvent>): Promise<void> {
    if (events.length === 0) return;
    const outcome = await this.appends.append({ streamId, events: toNewEvents(events, { workspaceId, version: METRICS_EVENT_VERSION, requestId: undefined }), expected: 'any' });
    if (outcome instanceof Error) throw outcome;
  }
}
