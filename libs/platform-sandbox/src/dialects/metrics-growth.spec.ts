import { SandboxStore } from '../store';
import { followerCount, itemCounts } from './metrics-growth';

describe('the sandbox metrics growth', () => {
  const post = (store: SandboxStore, id: string) =>
    store.add({ platform: 'mastodon', account: 'acct', owner: 'acct', id, kind: 'post', text: 'hello', mediaUrls: [], parentId: null, postId: null, author: 'acct', extra: {} });

  it('is a function of the item age on the sandbox clock: the same at the same instant, larger after the clock moves', () => {
    const store = new SandboxStore();
    const item = post(store, '1001');
    const first = itemCounts(store, item);
    expect(itemCounts(store, item)).toEqual(first);
    store.auth.advanceClock(30 * 60);
    const later = itemCounts(store, item);
    for (const name of Object.keys(first) as Array<keyof typeof first>) expect(later[name]).toBeGreaterThanOrEqual(first[name]);
    expect(later.likes).toBeGreaterThan(first.likes);
    store.auth.advanceClock(30 * 60);
    // Logarithmic: the second half hour adds fewer likes than the first did.
    expect(itemCounts(store, item).likes - later.likes).toBeLessThan(later.likes - first.likes);
  });

  it('counts an item from when it was made on the sandbox clock, not from the real time of its creation', () => {
    const store = new SandboxStore();
    store.auth.advanceClock(7 * 86_400);
    const fresh = post(store, '2002');
    expect(itemCounts(store, fresh).likes).toBe(0);
  });

  it('counts the comments really made under the item', () => {
    const store = new SandboxStore();
    const item = post(store, '3003');
    const before = itemCounts(store, item).comments;
    store.add({ platform: 'mastodon', account: 'fan', owner: 'fan', id: '3004', kind: 'comment', text: 'nice', mediaUrls: [], parentId: item.id, postId: item.id, author: 'fan', extra: {} });
    expect(itemCounts(store, item).comments).toBe(before + 1);
  });

  it("grows an account's followers with the sandbox clock", () => {
    const store = new SandboxStore();
    const identity = store.auth.provision({ platform: 'mastodon', handle: 'brand' });
    const before = followerCount(store, identity);
    store.auth.advanceClock(3600);
    // Twelve an hour (one more at most if the real clock crossed a step meanwhile).
    expect(followerCount(store, identity) - before).toBeGreaterThanOrEqual(12);
    expect(followerCount(store, identity) - before).toBeLessThanOrEqual(13);
  });
});
