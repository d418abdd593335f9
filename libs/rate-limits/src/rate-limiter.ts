import { RateLimitPolicy, RateLimitVerdict } from './rate-limit-policy';
import { RateLimitStore } from './rate-limit-store';
import { decisiveVerdict, evaluateWindow } from './sliding-window';

/** Where a key stands under one policy, without a request counted: how many it may still send, and when its usage is back to zero. */
export interface RateLimitStanding {
  policy: RateLimitPolicy;
  remaining: number;
  resetSeconds: number;
}

/**
 * Counts a request against the policies that apply to it and says whether it
 * may go on. Every request counts, refused ones included: a client that keeps
 * sending while limited stays limited (it is told how long to wait).
 */
export class RateLimiter {
  constructor(private readonly store: RateLimitStore) {}

  /** The decisive verdict (a refusal if any policy refuses), or null when no policy is switched on. */
  async check(keyId: string, policies: RateLimitPolicy[], now: Date): Promise<RateLimitVerdict | null> {
    const active = policies.filter((policy) => policy.limit > 0);
    if (!active.length) return null;
    const counts = await this.store.hit(keyId, active, now);
    return decisiveVerdict(
      active.map((policy) => {
        const policyCounts = counts.get(policy.name);
        if (!policyCounts) throw new Error(`rate limit store returned no counts for ${policy.name}`);
        return evaluateWindow(policy, policyCounts, now.getTime());
      }),
    );
  }

  /**
   * Where the key stands under each switched-on policy, counting nothing (a key
   * asking about its limits does not use them up; it may ask while refused).
   */
  async standing(keyId: string, policies: RateLimitPolicy[], now: Date): Promise<RateLimitStanding[]> {
    const active = policies.filter((policy) => policy.limit > 0);
    if (!active.length) return [];
    const counts = await this.store.peek(keyId, active, now);
    return active.map((policy) => {
      const { remaining, resetSeconds } = evaluateWindow(policy, counts.get(policy.name)!, now.getTime());
      return { policy, remaining, resetSeconds };
    });
  }
}
