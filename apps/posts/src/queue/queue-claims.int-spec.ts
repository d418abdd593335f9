import { randomUUID } from 'node:crypto';
import { AppConfig } from '@app/config';
import { ExpectedRevision, NewEvent, PostgresEventStore, WrongExpectedRevisionError } from '@app/event-store';
import { createTestDatabase, TestDatabase } from '@app/testing';
import { QueueCommandRunner } from './queue-command-runner';

/**
 * The real PostgreSQL store, counting the appends it refused for a stale expected revision (a lost
 * race). While `held` is above zero, appends wait until that many have arrived, then go together:
 * both replicas have decided on the same revision, so the race is certain, not left to timing.
 */
class CountingStore extends PostgresEventStore {
  conflicts = 0;
  held = 0;
  private waiting: Array<() => void> = [];

  override async append(streamId: string, events: NewEvent[], expected: ExpectedRevision) {
    if (this.held > 0) {
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        if (this.waiting.length >= this.held) {
          this.held = 0;
          this.waiting.splice(0).forEach((go) => go());
        }
      });
    }
    try {
      return await super.append(streamId, events, expected);
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) this.conflicts++;
      throw error;
    }
  }
}

/**
 * Two posts replicas (two runners, each with its own cache and batching) claiming slots of one
 * account at once: the queue stream's expected revision lets one claim land per slot, and the
 * loser of each race, decided again on the winner's claim, takes the next free slot.
 */
describe('queue claims across replicas (real PostgreSQL)', () => {
  let db: TestDatabase;
  let store: CountingStore;
  const now = new Date('2030-06-03T06:00:00Z'); // a Monday
  const until = new Date('2030-09-01T00:00:00Z');

  beforeAll(async () => {
    db = await createTestDatabase();
    store = new CountingStore(db.pool, { databaseUrl: db.url });
  });
  afterAll(() => db.drop());

  it('gives twenty concurrent claims from two replicas twenty distinct slots, the first twenty in order', async () => {
    const config = new AppConfig().with({ now: () => now });
    const replicas = [new QueueCommandRunner(store, config), new QueueCommandRunner(store, config)];
    const accountId = randomUUID();
    const hours = Array.from({ length: 10 }, (_, i) => `${String(8 + i).padStart(2, '0')}:00`);
    await replicas[0].run(accountId, (_s, at) => ({ type: 'SetPostingSchedule', workspaceId: randomUUID(), accountId, timezone: 'UTC', slots: hours.map((time) => ({ day: 'tue', time })), now: at }), undefined);
    store.held = 2;
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const postId = randomUUID();
        return replicas[i % 2]
          .run(accountId, (state, at) => ({ type: 'ClaimQueueSlot', workspaceId: state.workspaceId!, accountId, postId, notBefore: now, until, now: at }), undefined)
          .then((outcome) => outcome.state.claims[postId]);
      }),
    );
    const expected = ['2030-06-04', '2030-06-11'].flatMap((day) => hours.map((time) => `${day}T${time}:00.000Z`));
    expect([...claims].sort()).toEqual(expected);
    // The replicas did race: some appends were refused and decided again.
    expect(store.conflicts).toBeGreaterThan(0);
    const stream = await store.readStream(`queue-${accountId}`);
    expect(stream.filter((event) => event.type === 'QueueSlotClaimed')).toHaveLength(20);
  });
});
