import type { ConnectorAccount, PublishRequest } from '../../connector';
import type { AuthContext } from '../auth-context';
import { PlatformAuthRegistry } from '../auth-registry';
import type { OAuthApp, PlatformAuth } from '../platform-auth';
import { LINKEDIN_ANALYTICS_SCOPES, LINKEDIN_MEMBER_SCOPES, LINKEDIN_ORGANIZATION_SCOPES, LinkedInAuth } from './linkedin.auth';
import { connectorAccount, consent, oauthFlow, refusal, sandboxPerTest, TEST_RETRY } from './sign-in.test-support';

/**
 * LinkedIn sign-in against the platform sandbox, which plays from LinkedIn's docs:
 * "Authorization Code Flow (3-legged OAuth)" (https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow),
 * "Refresh Tokens with OAuth 2.0" (https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens),
 * "Sign In with LinkedIn using OpenID Connect" (GET /v2/userinfo, https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2)
 * and "Organization Access Control by Role" (GET /rest/organizationAcls,
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-access-control-by-role).
 * A fresh sandbox per test: its clock moves.
 */

const CALLBACK = 'https://publisher.example/api/v1/accounts/connect/callback';
const app: OAuthApp = { clientId: 'li-client-id', clientSecret: 'li-client-secret', redirectUri: CALLBACK };
const DAY = 86_400;

const env = sandboxPerTest('linkedin');
// A member's sign-in gives the member and the organizations they administer.
const { authorize, signInAccounts: signIn } = oauthFlow(env, app, { pkce: false });
let sequence = 0;

const post = (content: string): PublishRequest => ({ content, media: [], idempotencyKey: `post-${++sequence}` });
const days = (isoTime: string | null): number => (Date.parse(isoTime as string) - Date.now()) / (DAY * 1000);

/** A member who administers Acme, and Globex, which they do not administer. */
function provisionMember() {
  const provision = env.sandbox.control.provisionAccount.bind(env.sandbox.control);
  const member = provision({ platform: 'linkedin', handle: 'ada', displayName: 'Ada Lovelace' }).identity;
  const acme = provision({ platform: 'linkedin', handle: 'acme', displayName: 'Acme Corp', kind: 'organization', ownerKey: member.key }).identity;
  const globex = provision({ platform: 'linkedin', handle: 'globex', displayName: 'Globex', kind: 'organization' }).identity;
  return { member, acme, globex };
}

it("sends the member to LinkedIn's consent page for OpenID Connect, Share on LinkedIn and, when the app has them, organization permissions", () => {
  const real: AuthContext = { apiBaseUrl: 'https://api.linkedin.com', signInBaseUrl: null, retry: TEST_RETRY };
  const url = new URL(new PlatformAuthRegistry().get('linkedin').authorizationUrl({ app, state: 'st', codeChallenge: 'ch', instanceUrl: null }));
  expect(`${url.origin}${url.pathname}`).toBe('https://www.linkedin.com/oauth/v2/authorization');
  expect(Object.fromEntries(url.searchParams)).toEqual({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: CALLBACK,
    state: 'st',
    scope: 'openid profile w_member_social w_organization_social r_organization_social r_organization_admin rw_organization_admin r_member_postAnalytics r_member_profileAnalytics',
  });
  const memberOnly = new URL(new LinkedInAuth(real, { organizations: false }).authorizationUrl({ app, state: 'st', codeChallenge: 'ch', instanceUrl: null }));
  expect(memberOnly.searchParams.get('scope')).toBe('openid profile w_member_social');
});

it('signs a member in: the member (urn:li:person:<sub>) and each organization they administer, all posting with the member token; another organization is refused', async () => {
  const { member, acme, globex } = provisionMember();
  const tokens = await env.auth.exchangeCode({ app, code: (await authorize(member.key)).code, codeVerifier: 'unused', instanceUrl: null });
  expect(tokens.scopes).toEqual([...LINKEDIN_MEMBER_SCOPES, ...LINKEDIN_ORGANIZATION_SCOPES, ...LINKEDIN_ANALYTICS_SCOPES]);
  expect(days(tokens.expiresAt)).toBeCloseTo(60, 2);
  expect(days(tokens.refreshTokenExpiresAt)).toBeCloseTo(365, 2);

  const accounts = await env.auth.identify(tokens, null);
  const sub = member.platformAccountId.replace('urn:li:person:', '');
  expect(accounts.map((account) => account.identity)).toEqual([
    { platformAccountId: member.platformAccountId, handle: `@${sub}`, displayName: 'Ada Lovelace', instanceUrl: null, attributes: {} },
    { platformAccountId: acme.platformAccountId, handle: '@acme', displayName: 'Acme Corp', instanceUrl: null, attributes: {} },
  ]);
  expect(accounts.every((account) => account.credentials.accessToken === tokens.accessToken && account.credentials.kind === 'oauth2_refresh')).toBe(true);

  const linkedin = env.connectors.get('linkedin');
  const [asMember, asAcme] = accounts.map((account) => connectorAccount('linkedin', account));
  expect(await linkedin.publish(asMember, post('As myself'))).toMatchObject({ status: 'published' });
  expect(await linkedin.publish(asAcme, post('As Acme'))).toMatchObject({ status: 'published' });
  const asGlobex: ConnectorAccount = { ...asAcme, identity: { ...asAcme.identity, platformAccountId: globex.platformAccountId } };
  expect(await linkedin.publish(asGlobex, post('As Globex'))).toMatchObject({ status: 'failed', error: { code: 'access_denied', retryable: false } });
  expect(env.sandbox.control.published({ platform: 'linkedin' }).map((item) => [item.owner, item.text])).toEqual([
    [member.platformAccountId, 'As myself'],
    [acme.platformAccountId, 'As Acme'],
  ]);
});

it('without an organization permission it identifies only the member, without asking for roles (which LinkedIn would refuse)', async () => {
  const { member } = provisionMember();
  const memberOnly: PlatformAuth = new LinkedInAuth({ apiBaseUrl: `${env.sandbox.url}/linkedin`, signInBaseUrl: `${env.sandbox.url}/linkedin`, retry: TEST_RETRY }, { organizations: false });
  const tokens = await memberOnly.exchangeCode({ app, code: (await authorize(member.key, { client: memberOnly })).code, codeVerifier: 'unused', instanceUrl: null });
  expect(await memberOnly.identify(tokens, null)).toMatchObject([{ identity: { platformAccountId: member.platformAccountId } }]);
  expect(env.sandbox.control.requestCount({ platform: 'linkedin', operation: 'roles' })).toBe(0);

  const roles = await fetch(`${env.sandbox.url}/linkedin/rest/organizationAcls?q=roleAssignee`, {
    headers: { authorization: `Bearer ${tokens.accessToken}`, 'linkedin-version': '202607', 'x-restli-protocol-version': '2.0.0' },
  });
  expect(roles.status).toBe(403);
  expect(await roles.json()).toMatchObject({ status: 403, code: 'ACCESS_DENIED' });
});

it('refuses a code it will not exchange: spent, for another redirect uri, or for another client', async () => {
  const { member } = provisionMember();
  const { code } = await authorize(member.key);
  await env.auth.exchangeCode({ app, code, codeVerifier: 'unused', instanceUrl: null });
  await expect(env.auth.exchangeCode({ app, code, codeVerifier: 'unused', instanceUrl: null })).rejects.toEqual(refusal('invalid_request'));
  const { code: another } = await authorize(member.key);
  await expect(env.auth.exchangeCode({ app: { ...app, redirectUri: 'https://elsewhere.example/cb' }, code: another, codeVerifier: 'unused', instanceUrl: null })).rejects.toEqual(refusal('invalid_request'));
  await expect(env.auth.exchangeCode({ app: { ...app, clientId: 'another-client' }, code: another, codeVerifier: 'unused', instanceUrl: null })).rejects.toEqual(refusal('invalid_request'));
});

it('a refresh gives a new 60-day access token and the same refresh token with what remains of its year; after the year the member signs in again', async () => {
  const [account] = await signIn(provisionMember().member.key);
  env.sandbox.control.advanceClock(59 * DAY);
  const refreshed = await env.auth.refresh(app, account.credentials, account.identity);
  expect(refreshed.accessToken).not.toBe(account.credentials.accessToken);
  expect(refreshed.refreshToken).toBe(account.credentials.refreshToken);
  expect(days(refreshed.expiresAt)).toBeCloseTo(60, 2);
  expect(days(refreshed.refreshTokenExpiresAt)).toBeCloseTo(365 - 59, 2);
  expect(await env.auth.identify(refreshed, null)).toMatchObject([{ identity: account.identity }, expect.anything()]);

  env.sandbox.control.advanceClock(307 * DAY);
  await expect(env.auth.refresh(app, account.credentials, account.identity)).rejects.toEqual(refusal('invalid_grant'));
});

it('after 60 days the token is refused as expired, after a revocation as invalid: by identify and by the connector', async () => {
  const { member } = provisionMember();
  const [expiring] = await signIn(member.key);
  env.sandbox.control.advanceClock(60 * DAY + 1);
  await expect(env.auth.identify(expiring.credentials, null)).rejects.toEqual(refusal('access_token_expired'));
  expect(await env.connectors.get('linkedin').publish(connectorAccount('linkedin', expiring), post('late'))).toEqual({
    status: 'failed',
    error: { code: 'access_token_expired', message: 'The token used in the request has expired', retryable: false },
  });

  const [revoked] = await signIn(member.key);
  await env.auth.revoke(app, revoked.credentials, revoked.identity);
  await expect(env.auth.identify(revoked.credentials, null)).rejects.toEqual(refusal('access_token_invalid'));
  expect(await env.connectors.get('linkedin').publish(connectorAccount('linkedin', revoked), post('gone'))).toMatchObject({ status: 'failed', error: { code: 'access_token_invalid' } });
  await expect(env.auth.refresh(app, revoked.credentials, revoked.identity)).rejects.toEqual(refusal('invalid_grant'));
});

it('a member who cancels comes back with user_cancelled_authorize and the state, without a code', async () => {
  const { member } = provisionMember();
  const back = await consent(env.auth.authorizationUrl({ app, state: 'cancelled', codeChallenge: 'ch', instanceUrl: null }), member.key, { deny: true });
  expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'user_cancelled_authorize', error_description: 'The user cancelled the authorization', state: 'cancelled' });
});
