import type { SandboxIdentity } from '../auth/authority';
import type { SandboxItem, SandboxStore } from '../store';

/**
 * The numbers the sandbox's metrics endpoints answer: a deterministic function of an item's age
 * on the sandbox's clock (what `POST /_sandbox/clock` advances), so a test reads them, moves
 * the clock, and reads larger ones, and two reads at the same instant agree. Each count grows
 * with the logarithm of the minutes since the item was made (fast at first, then slowly, as a
 * post's curve does), scaled by a per-item factor from its id so items differ; comments also
 * count the comments really made under the item. The platforms' own field names are the
 * dialects' business; these are the underlying quantities.
 */
export interface ItemCounts {
  impressions: number;
  reach: number;
  views: number;
  likes: number;
  comments: number;
  shares: number;
  quotes: number;
  saves: number;
  clicks: number;
}

export function itemCounts(store: SandboxStore, item: SandboxItem): ItemCounts {
  const madeAt = store.madeOnClock.get(`${item.platform}:${item.id}`) ?? Date.parse(item.createdAt);
  const minutes = Math.max(0, (store.auth.now() - madeAt) / 60_000);
  const growth = Math.log1p(minutes) * (1 + (hash(item.id) % 5) / 10);
  const count = (perUnit: number) => Math.floor(perUnit * growth);
  const impressions = count(120);
  return {
    impressions,
    reach: Math.floor(impressions * 0.7),
    views: Math.floor(impressions * 0.5),
    likes: count(9),
    comments: count(2) + store.commentsUnder(item.platform, item.id).length,
    shares: count(3),
    quotes: count(1),
    saves: count(1.5),
    clicks: count(4),
  };
}

/** An account's followers: a base from its key, plus twelve an hour on the sandbox's clock since the sandbox started. */
export function followerCount(store: SandboxStore, identity: SandboxIdentity): number {
  const hours = Math.max(0, (store.auth.now() - store.startedAt) / 3_600_000);
  return 100 + (hash(identity.key) % 900) + Math.floor(hours * 12);
}

function hash(text: string): number {
  let value = 0;
  for (let index = 0; index < text.length; index++) value = (value * 31 + text.charCodeAt(index)) >>> 0;
  return value;
}
