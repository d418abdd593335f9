import { RateLimitPolicy, RateLimitVerdict } from './rate-limit-policy';
import { RateLimitStore } from './rate-limit-store';
import { decisiveVerdict, evaluateWindow } from './sliding-window';

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
}
