import { GlobalPosition } from '@app/contracts';
import { RecordedEvent } from './event-store.port';
import { SharedFeedReads } from './shared-feed-reads';

describe('SharedFeedReads', () => {
  const at = (commit: number): GlobalPosition => ({ commit: BigInt(commit), prepare: BigInt(commit) });
  let reads: Array<{ after: GlobalPosition; maxCount: number }>;
  let shared: SharedFeedReads;

  beforeEach(() => {
    reads = [];
    shared = new SharedFeedReads(async (after, maxCount) => {
      reads.push({ after, maxCount });
      return [] as RecordedEvent[];
    });
  });

  it('answers a second follower asking for the same read in the same moment with the first one', async () => {
    const first = shared.readAll(at(5), 500);
    const second = shared.readAll(at(5), 500);
    expect(second).toBe(first);
    await second;
    expect(reads).toHaveLength(1);
  });

  it('reads again for another position or size', async () => {
    await shared.readAll(at(5), 500);
    await shared.readAll(at(6), 500);
    await shared.readAll(at(6), 100);
    expect(reads).toHaveLength(3);
  });

  it('reads again once an append was signalled after the shared read began: that read may not show it', async () => {
    await shared.readAll(at(5), 500);
    shared.heard();
    await shared.readAll(at(5), 500);
    expect(reads).toHaveLength(2);
  });

  it('reads again when the shared read is too old to answer a poll', async () => {
    const now = jest.spyOn(performance, 'now');
    try {
      now.mockReturnValue(1_000);
      await shared.readAll(at(5), 500);
      now.mockReturnValue(1_049);
      await shared.readAll(at(5), 500);
      expect(reads).toHaveLength(1);
      now.mockReturnValue(1_051);
      await shared.readAll(at(5), 500);
      expect(reads).toHaveLength(2);
    } finally {
      now.mockRestore();
    }
  });

  it('does not hand a failed read to the next follower', async () => {
    let fail = true;
    const failing = new SharedFeedReads(async () => {
      if (fail) throw new Error('connection lost');
      return [] as RecordedEvent[];
    });
    await expect(failing.readAll(at(5), 500)).rejects.toThrow('connection lost');
    fail = false;
    await expect(failing.readAll(at(5), 500)).resolves.toEqual([]);
  });
});
