import { connectLinkRefusal } from './connect-link-refusal';
import type { ConnectLink } from './connect-link-store';

const NOW = new Date('2030-01-01T12:00:00Z');
const link = (overrides: Partial<ConnectLink> = {}): ConnectLink => ({
  id: 'l-1',
  workspaceId: 'w-1',
  redirectUri: 'https://client.example.com/back',
  platforms: null,
  brand: null,
  expiresAt: new Date(NOW.getTime() + 1000),
  revokedAt: null,
  ...overrides,
});

describe('connectLinkRefusal', () => {
  it('lets a live link through', () => expect(connectLinkRefusal(link(), NOW)).toBeNull());
  it('refuses an unknown (or wrongly signed) link', () => expect(connectLinkRefusal(null, NOW)?.code).toBe('connect_link_invalid'));
  it('refuses an expired link, at its very instant', () => expect(connectLinkRefusal(link({ expiresAt: NOW }), NOW)?.code).toBe('connect_link_expired'));
  it('says revoked before expired', () => expect(connectLinkRefusal(link({ expiresAt: new Date(0), revokedAt: new Date(0) }), NOW)?.code).toBe('connect_link_revoked'));
});
