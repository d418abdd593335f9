import { DomainError } from '@app/contracts';
import type { ConnectLink } from './connect-link-store';

/**
 * Why a link cannot be used now, or null: unknown (or its signature did not match: the caller
 * passes null then), revoked, expired. Revoked before expired: revocation is the workspace's
 * decision and says more than the clock.
 */
export function connectLinkRefusal(link: ConnectLink | null, now: Date): DomainError | null {
  if (!link) return new DomainError('connect_link_invalid', 'this connect link is not valid (unknown, or altered)');
  if (link.revokedAt) return new DomainError('connect_link_revoked', 'this connect link was revoked');
  if (link.expiresAt.getTime() <= now.getTime()) return new DomainError('connect_link_expired', `this connect link expired at ${link.expiresAt.toISOString()}`);
  return null;
}
