import { randomBytes } from 'node:crypto';
import { field, PlatformRefusal, RouteContext } from '../../dialect';
import { tokenRefused } from '../../dialects/bluesky';
import type { IssuedToken, SandboxAuthority, SandboxIdentity, TokenPair } from '../authority';
import type { SandboxSignIn } from '../sign-in';

/** The reference PDS's lifetimes (bluesky-social/atproto packages/pds auth helpers): access JWT 120 minutes, refresh JWT 90 days. */
const ACCESS_TTL_SECONDS = 2 * 60 * 60;
const REFRESH_TTL_SECONDS = 90 * 24 * 60 * 60;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(length: number): string {
  return [...randomBytes(length)].map((byte) => BASE32[byte % 32]).join('');
}

/** A lexicon-required input property, refused like the PDS's schema validation. */
function input(body: unknown, name: string): string {
  const value = field(body, name);
  if (typeof value !== 'string' || value === '') throw new PlatformRefusal(400, 'InvalidRequest', `Input must have the property "${name}"`);
  return value;
}

/**
 * What session endpoints answer about the account: did, handle and its DID document,
 * whose `#atproto_pds` service names the PDS (here: this sandbox's /bluesky).
 */
function sessionView(identity: SandboxIdentity, pdsUrl: string) {
  return {
    did: identity.platformAccountId,
    handle: identity.handle,
    didDoc: {
      '@context': ['https://www.w3.org/ns/did/v1'],
      id: identity.platformAccountId,
      alsoKnownAs: [`at://${identity.handle}`],
      service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: pdsUrl }],
    },
    active: true,
  };
}

function withTokens(pair: TokenPair) {
  return { accessJwt: pair.accessToken, refreshJwt: pair.refreshToken };
}

/** refreshSession and deleteSession take the refreshJwt as their bearer: the session it stands for, or the PDS's refusal. */
function refreshSessionOf({ headers, store }: RouteContext): { token: IssuedToken; identity: SandboxIdentity } {
  const header = headers.authorization;
  const bearer = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
  if (!bearer) throw tokenRefused('missing');
  const checked = store.auth.check(bearer, 'refresh');
  if (!checked.ok) throw tokenRefused(checked.reason);
  return checked;
}

/**
 * Bluesky sign-in as a PDS plays it (https://docs.bsky.app/docs/api/com-atproto-server-create-session
 * and its refresh-session, get-session, delete-session siblings): an app password opens a
 * session of an accessJwt (2 hours) and a refreshJwt (90 days) that refreshSession rotates.
 */
export const blueskySignIn: SandboxSignIn = {
  platform: 'bluesky',
  // did:plc identifiers are 24 base32 characters (https://web.plc.directory/spec/v0.1/did-plc).
  newAccountId: () => `did:plc:${base32(24)}`,
  issueTokens: (auth: SandboxAuthority, identity: SandboxIdentity) => {
    // Provisioning signs accounts in through here: one without an app password (attributes.appPassword) gets one, xxxx-xxxx-xxxx-xxxx like Bluesky's.
    identity.attributes.appPassword ??= [4, 4, 4, 4].map(base32).join('-');
    return auth.issue(identity.key, { accessTtlSeconds: ACCESS_TTL_SECONDS, refreshTtlSeconds: REFRESH_TTL_SECONDS });
  },
  routes: [
    {
      method: 'POST',
      url: '/xrpc/com.atproto.server.createSession',
      operation: 'sign_in',
      auth: 'none',
      handle: ({ store, body, baseUrl }) => {
        const identifier = input(body, 'identifier').replace(/^@/, '').toLowerCase();
        const password = input(body, 'password');
        // The identifier is a handle, a DID or the account's email.
        const identity = [...store.auth.identities.values()].find(
          (candidate) =>
            candidate.platform === 'bluesky' &&
            [candidate.handle.toLowerCase(), candidate.platformAccountId, candidate.attributes.email?.toLowerCase()].includes(identifier),
        );
        if (!identity || identity.attributes.appPassword !== password) throw new PlatformRefusal(401, 'AuthenticationRequired', 'Invalid identifier or password');
        return { body: { ...withTokens(blueskySignIn.issueTokens(store.auth, identity, null, [])), ...sessionView(identity, baseUrl) } };
      },
    },
    {
      method: 'POST',
      url: '/xrpc/com.atproto.server.refreshSession',
      operation: 'refresh',
      auth: 'none',
      handle: (ctx) => {
        const session = refreshSessionOf(ctx);
        // Rotation: a refreshJwt is spent by its use; using it again answers ExpiredToken "Token has been revoked".
        session.token.revoked = true;
        return { body: { ...withTokens(blueskySignIn.issueTokens(ctx.store.auth, session.identity, null, [])), ...sessionView(session.identity, ctx.baseUrl) } };
      },
    },
    {
      method: 'GET',
      url: '/xrpc/com.atproto.server.getSession',
      operation: 'identity',
      handle: ({ identity, baseUrl }) => ({ body: sessionView(identity!, baseUrl) }),
    },
    {
      method: 'POST',
      url: '/xrpc/com.atproto.server.deleteSession',
      operation: 'revoke',
      auth: 'none',
      handle: (ctx) => {
        // Only the refreshJwt dies: the PDS keeps no record of access JWTs, which stay valid until they end.
        refreshSessionOf(ctx).token.revoked = true;
        return {};
      },
    },
  ],
};
