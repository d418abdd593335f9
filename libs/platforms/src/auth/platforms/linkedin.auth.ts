import { isCredentialError, PlatformError } from '../../connector';
import { arrayAt, stringAt } from '../../connectors/connector-context';
import { LINKEDIN_API_VERSION, mapLinkedInError } from '../../connectors/linkedin.connector';
import { PlatformHttp } from '../../http/platform-http';
import { malformedAnswer } from '../../outcome';
import type { AuthContext } from '../auth-context';
import { mapOAuthError, refusingCredential, requestTokens, requireApp, signInUrl, withQuery } from '../oauth2';
import { AuthorizationRequest, CodeExchange, CredentialRefused, OAuthApp, PlatformAuth, SignedInAccount, StoredCredentials, TokenSet } from '../platform-auth';

/**
 * LinkedIn sign-in: "Sign In with LinkedIn using OpenID Connect" plus Share on LinkedIn, and
 * the organizations the member administers (Community Management):
 * - consent and code exchange: "Authorization Code Flow (3-legged OAuth)",
 *   https://learn.microsoft.com/en-us/linkedin/shared/authentication/authorization-code-flow
 *   (www.linkedin.com/oauth/v2/authorization and /accessToken, client id and secret in the
 *   form; no PKCE, which LinkedIn offers only to approved native apps);
 * - refresh: "Refresh Tokens with OAuth 2.0",
 *   https://learn.microsoft.com/en-us/linkedin/shared/authentication/programmatic-refresh-tokens
 *   (access tokens 60 days, refresh tokens 365 days from the sign-in, not rotated);
 * - identity: GET /v2/userinfo ("Sign In with LinkedIn using OpenID Connect",
 *   https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2):
 *   the member is urn:li:person:<sub>;
 * - organizations: GET /rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR ("Organization
 *   Access Control by Role", https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-access-control-by-role),
 *   one account per organization, posting with the member's token;
 * - revocation: POST www.linkedin.com/oauth/v2/revoke (client id, secret and token, RFC 7009).
 */

/** Who the member is, and posting as the member. */
export const LINKEDIN_MEMBER_SCOPES = ['openid', 'profile', 'w_member_social'];
/**
 * Posting as, finding, and reading the posts of (reconciliation: "Find Posts by Authors") the
 * organizations the member administers (apps with the Community Management API). A member's own
 * posts are read with r_member_social, which LinkedIn grants to approved partners only: it is not
 * asked for, so a lost answer on a member account ends outcome_unknown.
 */
export const LINKEDIN_ORGANIZATION_SCOPES = ['w_organization_social', 'r_organization_social', 'r_organization_admin'];
/**
 * Analytics only (ANALYTICS_ONLY_SCOPES), products of the same Community Management API: an organization's share
 * statistics and follower count (rw_organization_admin), a member's post statistics (r_member_postAnalytics) and
 * follower count (r_member_profileAnalytics). Asked with the organization scopes, by the apps that hold that API.
 */
export const LINKEDIN_ANALYTICS_SCOPES = ['rw_organization_admin', 'r_member_postAnalytics', 'r_member_profileAnalytics'];
/** Either lets organizationAcls list the member's roles. */
const ROLE_READING_SCOPES = ['r_organization_admin', 'rw_organization_admin'];

const SIGN_IN_HOST = 'https://www.linkedin.com';

/**
 * LinkedIn refuses a code it will not exchange with invalid_request ("Unable to retrieve
 * access token: ... authorization code expired ..."), and a refresh token with invalid_grant.
 */
const refusedByLinkedIn = (error: PlatformError): boolean =>
  error.code === 'invalid_grant' || (error.code === 'invalid_request' && /unable to retrieve access token/i.test(error.message));

export interface LinkedInAuthOptions {
  /** Ask for the organization scopes: only apps with the Community Management API hold them (default true). */
  organizations?: boolean;
  /** LinkedIn-Version of the /rest calls (YYYYMM); the connector's default when absent. */
  apiVersion?: string;
}

export class LinkedInAuth implements PlatformAuth {
  readonly platform = 'linkedin' as const;
  readonly signsInWithOAuth = true;
  readonly scopes: readonly string[];
  private readonly oauth: PlatformHttp;
  private readonly api: PlatformHttp;

  constructor(
    private readonly ctx: AuthContext,
    private readonly options: LinkedInAuthOptions = {},
  ) {
    this.oauth = new PlatformHttp(mapOAuthError, ctx.retry);
    this.api = new PlatformHttp(mapLinkedInError, ctx.retry);
    this.scopes = [...LINKEDIN_MEMBER_SCOPES, ...(options.organizations === false ? [] : [...LINKEDIN_ORGANIZATION_SCOPES, ...LINKEDIN_ANALYTICS_SCOPES])];
  }

  authorizationUrl({ app, state }: AuthorizationRequest): string {
    const scopes = this.scopes;
    return withQuery(signInUrl(this.ctx, SIGN_IN_HOST, '/oauth/v2/authorization'), {
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      state,
      scope: scopes.join(' '),
    });
  }

  async exchangeCode({ app, code }: CodeExchange): Promise<TokenSet> {
    return this.grant(app, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri });
  }

  /** The member, then one account per organization the member administers (when the grant lets us read roles). */
  async identify(tokens: TokenSet): Promise<SignedInAccount[]> {
    const credentials: StoredCredentials = { ...tokens, kind: 'oauth2_refresh' };
    const account = (platformAccountId: string, handle: string, displayName: string): SignedInAccount => ({
      platform: 'linkedin',
      identity: { platformAccountId, handle: `@${handle}`, displayName, instanceUrl: null, attributes: {} },
      credentials,
    });
    const member = await this.read(tokens, '/v2/userinfo');
    const sub = stringAt(member, 'sub');
    if (!sub) throw malformedAnswer('sub');
    // OpenID Connect gives no public profile name (vanity name): the member's id stands as the handle.
    const person = account(`urn:li:person:${sub}`, sub, stringAt(member, 'name') ?? sub);
    if (!tokens.scopes.some((scope) => ROLE_READING_SCOPES.includes(scope))) return [person];
    // The projection decorates each organization URN with its name ("organization~"), in the same call.
    const roles = await this.read(tokens, '/rest/organizationAcls?q=roleAssignee&role=ADMINISTRATOR&state=APPROVED&projection=(elements*(organization,organization~(localizedName,vanityName)))', {
      'LinkedIn-Version': this.options.apiVersion ?? LINKEDIN_API_VERSION,
      'X-Restli-Protocol-Version': '2.0.0',
    });
    const organizations = arrayAt(roles, 'elements').map((role) => {
      const urn = stringAt(role, 'organization');
      if (!urn) throw malformedAnswer('organization on a role');
      const name = stringAt(role, 'organization~', 'localizedName');
      return account(urn, stringAt(role, 'organization~', 'vanityName') ?? urn.split(':').pop() ?? urn, name ?? urn);
    });
    return [person, ...organizations];
  }

  async refresh(app: OAuthApp | null, current: StoredCredentials): Promise<TokenSet> {
    if (!current.refreshToken) throw new CredentialRefused('no_refresh_token', 'LinkedIn gave no refresh token (the app is not approved for programmatic refresh tokens)');
    return this.grant(app, { grant_type: 'refresh_token', refresh_token: current.refreshToken });
  }

  async revoke(app: OAuthApp | null, current: StoredCredentials): Promise<void> {
    const { clientId, clientSecret } = requireApp(app);
    await this.oauth.send({
      method: 'POST',
      url: signInUrl(this.ctx, SIGN_IN_HOST, '/oauth/v2/revoke'),
      form: { client_id: clientId, client_secret: clientSecret, token: current.accessToken },
    });
  }

  private async grant(app: OAuthApp | null, form: Record<string, string>): Promise<TokenSet> {
    const { clientId, clientSecret } = requireApp(app);
    const url = signInUrl(this.ctx, SIGN_IN_HOST, '/oauth/v2/accessToken');
    return refusingCredential(() => requestTokens(this.oauth, url, { ...form, client_id: clientId, client_secret: clientSecret }), refusedByLinkedIn);
  }

  /** A read with the member's token; a refused token is CredentialRefused. */
  private async read(tokens: TokenSet, path: string, headers: Record<string, string> = {}): Promise<unknown> {
    const response = await refusingCredential(
      () => this.api.send({ method: 'GET', url: `${this.ctx.apiBaseUrl}${path}`, headers: { authorization: `Bearer ${tokens.accessToken}`, ...headers } }),
      isCredentialError,
    );
    return response.body;
  }
}
