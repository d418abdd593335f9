import type { ConnectorAccount, PublishRequest } from '../../connector';
import { PlatformCallFailed } from '../../http/platform-http';
import { CredentialRefused, SignedInAccount, TokenSet } from '../platform-auth';
import { sandboxPerFile } from './sign-in.test-support';

/**
 * Bluesky sign-in against the platform sandbox, which plays the PDS's session endpoints
 * from the docs: com.atproto.server.createSession / getSession / refreshSession /
 * deleteSession (https://docs.bsky.app/docs/api/com-atproto-server-create-session and
 * siblings), token refusals as the reference PDS answers them.
 */

const env = sandboxPerFile('bluesky');
let sequence = 0;

const pds = (): string => `${env.sandbox.url}/bluesky`;
const post = (content: string): PublishRequest => ({ content, media: [], idempotencyKey: `post-${++sequence}` });

/** An account on the sandbox PDS, with the app password it was given. */
function provision() {
  return env.sandbox.control.provisionAccount({ platform: 'bluesky', handle: `brand${++sequence}.bsky.social` });
}

async function logIn(identity: { handle: string; attributes: Record<string, string> }): Promise<SignedInAccount> {
  const [account] = await env.auth.logIn!({ identifier: identity.handle, password: identity.attributes.appPassword, instanceUrl: null });
  return account;
}

function asConnectorAccount(account: SignedInAccount, accessToken = account.credentials.accessToken): ConnectorAccount {
  return { accountId: account.identity.platformAccountId, platform: 'bluesky', identity: account.identity, credentials: { accessToken } };
}

function handedIn(accessToken: string): TokenSet {
  return { accessToken, refreshToken: null, expiresAt: null, refreshTokenExpiresAt: null, scopes: [] };
}

it('connects with an app password, not a browser sign-in', () => {
  expect(env.auth.signsInWithOAuth).toBe(false);
  expect(() => env.auth.authorizationUrl({ app: { clientId: 'c', clientSecret: null, redirectUri: 'https://x.example/cb' }, state: 's', codeChallenge: 'c', instanceUrl: null })).toThrow(CredentialRefused);
});

it('logs in with a handle and an app password (createSession): the DID, the handle, the PDS of the DID document, a two-hour session that can post', async () => {
  const { identity } = provision();
  const account = await env.auth.logIn!({ identifier: `@${identity.handle}`, password: identity.attributes.appPassword, instanceUrl: null }).then(([first]) => first);

  expect(identity.attributes.appPassword).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
  expect(account.identity).toEqual({ platformAccountId: identity.platformAccountId, handle: `@${identity.handle}`, displayName: identity.handle, instanceUrl: pds(), attributes: {} });
  expect(account.identity.platformAccountId).toMatch(/^did:plc:[a-z2-7]{24}$/);
  expect(account.credentials).toMatchObject({ kind: 'atproto_session', refreshToken: expect.any(String), scopes: [] });
  const lifetimeMs = Date.parse(account.credentials.expiresAt!) - Date.now();
  expect(lifetimeMs).toBeGreaterThan(119 * 60_000);
  expect(lifetimeMs).toBeLessThanOrEqual(120 * 60_000);

  const outcome = await env.connectors.get('bluesky').publish(asConnectorAccount(account), post('Signed in'));
  expect(outcome.status).toBe('published');
  expect(env.sandbox.control.published({ platform: 'bluesky', account: identity.key })).toHaveLength(1);
});

it('logs in with the DID as identifier too', async () => {
  const { identity } = provision();
  const [account] = await env.auth.logIn!({ identifier: identity.platformAccountId, password: identity.attributes.appPassword, instanceUrl: pds() });
  expect(account.identity.handle).toBe(`@${identity.handle}`);
});

it('refuses a wrong app password as the PDS does (401 AuthenticationRequired), once, without retrying', async () => {
  const { identity } = provision();
  const before = env.sandbox.control.requestCount({ platform: 'bluesky', operation: 'sign_in' });
  await expect(env.auth.logIn!({ identifier: identity.handle, password: 'aaaa-bbbb-cccc-dddd', instanceUrl: null })).rejects.toMatchObject({
    name: 'CredentialRefused',
    code: 'access_token_invalid',
    message: 'Invalid identifier or password',
  });
  expect(env.sandbox.control.requestCount({ platform: 'bluesky', operation: 'sign_in' })).toBe(before + 1);
});

it('refuses a createSession without the password the lexicon requires: a fault of the request, not a refused credential', async () => {
  const { identity } = provision();
  const failure = await env.auth.logIn!({ identifier: identity.handle, password: '', instanceUrl: null }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(PlatformCallFailed);
  expect((failure as PlatformCallFailed).error).toEqual({ code: 'invalid_request', message: 'Input must have the property "password"', retryable: false });
});

it('identifies a handed-in accessJwt (getSession) and refuses one the PDS never issued', async () => {
  const provisioned = provision();
  const [account] = await env.auth.identify(handedIn(provisioned.accessToken), null);
  expect(account.identity).toMatchObject({ platformAccountId: provisioned.identity.platformAccountId, handle: `@${provisioned.identity.handle}`, instanceUrl: pds() });
  expect(account.credentials).toMatchObject({ kind: 'atproto_session', accessToken: provisioned.accessToken });
  await expect(env.auth.identify(handedIn('not-a-session'), null)).rejects.toMatchObject({ name: 'CredentialRefused', code: 'access_token_invalid', message: 'Token could not be verified' });
});

it('an accessJwt ends after two hours (ExpiredToken); refreshSession renews the session and spends the old refreshJwt (rotation)', async () => {
  const { identity } = provision();
  const account = await logIn(identity);
  env.sandbox.control.advanceClock(2 * 60 * 60 + 1);

  await expect(env.auth.identify(account.credentials, null)).rejects.toMatchObject({ name: 'CredentialRefused', code: 'access_token_expired', message: 'Token has expired' });
  const refused = await env.connectors.get('bluesky').publish(asConnectorAccount(account), post('too late'));
  expect(refused).toMatchObject({ status: 'failed', error: { code: 'access_token_expired', retryable: false } });

  const renewed = await env.auth.refresh(null, account.credentials, account.identity);
  expect(renewed).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String), scopes: [] });
  expect(renewed.refreshToken).not.toBe(account.credentials.refreshToken);
  const [again] = await env.auth.identify(renewed, null);
  expect(again.identity.platformAccountId).toBe(identity.platformAccountId);
  expect((await env.connectors.get('bluesky').publish(asConnectorAccount(account, renewed.accessToken), post('renewed'))).status).toBe('published');

  await expect(env.auth.refresh(null, account.credentials, account.identity)).rejects.toMatchObject({ name: 'CredentialRefused', code: 'access_token_expired', message: 'Token has been revoked' });
});

it('a refreshJwt ends after 90 days', async () => {
  const account = await logIn(provision().identity);
  env.sandbox.control.advanceClock(90 * 24 * 60 * 60 + 1);
  await expect(env.auth.refresh(null, account.credentials, account.identity)).rejects.toMatchObject({ name: 'CredentialRefused', code: 'access_token_expired', message: 'Token has expired' });
});

it('a refreshSession answered 503 stays a retryable PlatformCallFailed and spends nothing', async () => {
  const account = await logIn(provision().identity);
  env.sandbox.control.addFault({ platform: 'bluesky', operation: 'refresh', times: 'always', fault: { type: 'error', status: 503, message: 'PDS unavailable' } });
  try {
    const failure = await env.auth.refresh(null, account.credentials, account.identity).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PlatformCallFailed);
    expect((failure as PlatformCallFailed).error).toMatchObject({ code: 'internal_server_error', retryable: true });
  } finally {
    env.sandbox.control.clearFaults();
  }
  await expect(env.auth.refresh(null, account.credentials, account.identity)).resolves.toMatchObject({ refreshToken: expect.any(String) });
});

it('revoke (deleteSession) ends the session: its refreshJwt is refused from then on, and revoking again is quiet', async () => {
  const account = await logIn(provision().identity);
  await env.auth.revoke(null, account.credentials, account.identity);
  await expect(env.auth.refresh(null, account.credentials, account.identity)).rejects.toMatchObject({ name: 'CredentialRefused', code: 'access_token_expired' });
  await expect(env.auth.revoke(null, account.credentials, account.identity)).resolves.toBeUndefined();
});

it("the PDS writes only to the session's own repo: another account's DID is 401 AuthenticationRequired, an unknown one 400", async () => {
  const mine = await logIn(provision().identity);
  const other = provision().identity;
  const publish = (repo: string) =>
    env.connectors.get('bluesky').publish({ ...asConnectorAccount(mine), identity: { ...mine.identity, platformAccountId: repo } }, post('whose repo?'));

  expect(await publish(other.platformAccountId)).toMatchObject({ status: 'failed', error: { code: 'access_token_invalid', retryable: false } });
  expect(await publish('did:plc:nobodyhere')).toMatchObject({ status: 'failed', error: { code: 'invalid_request', message: 'Could not find repo: did:plc:nobodyhere' } });
  expect(env.sandbox.control.published({ platform: 'bluesky', account: other.key })).toHaveLength(0);
});
