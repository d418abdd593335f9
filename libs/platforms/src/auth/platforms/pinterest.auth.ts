import { isCredentialError, PlatformError } from '../../connector';
import { arrayAt, stringAt } from '../../connectors/connector-context';
import { mapPinterestError } from '../../connectors/pinterest.connector';
import { PlatformHttp, PlatformResponse } from '../../http/platform-http';
import { malformedAnswer } from '../../outcome';
import type { AuthContext } from '../auth-context';
import { basicHeader, bearerHeader, isInvalidGrant, oauth2Account, refreshTokenOf, refusingCredential, requestTokens, requireApp, signInUrl, withQuery } from '../oauth2';
import type { AuthorizationRequest, CodeExchange, OAuthApp, PlatformAuth, SignedInAccount, StoredCredentials, TokenSet } from '../platform-auth';

const PINTEREST_WEB = 'https://www.pinterest.com';
const PINTEREST_API = 'https://api.pinterest.com';

/** Read the account and its boards, read and create pins. */
export const PINTEREST_SCOPES = ['boards:read', 'pins:read', 'pins:write', 'user_accounts:read'];

/** The token endpoint answers in the API's {code, message}; there a failed authentication (code 2) is the app's Basic credentials, not a token. */
function mapTokenEndpointError(response: PlatformResponse): PlatformError {
  const error = mapPinterestError(response);
  return error.code === 'access_token_invalid' ? { ...error, code: 'invalid_client' } : error;
}

/**
 * Pinterest API v5 OAuth, as "Set up authentication and authorization" describes it
 * (https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/):
 * consent at www.pinterest.com/oauth/ with comma-separated scopes; the code exchange and
 * refreshes at POST api.pinterest.com/v5/oauth/token with the app's id and secret as HTTP
 * Basic ("Generate OAuth access token", POST /oauth/token in Pinterest's v5 OpenAPI description,
 * github.com/pinterest/api-description v5/openapi.yaml).
 * Access tokens live 30 days. Refresh tokens are continuous (60 days, every refresh answers
 * a new one): the default for apps made since 25 September 2025, asked for with
 * continuous_refresh=true by older ones. The v5 API has no revocation endpoint.
 * Identity: GET /v5/user_account; the board pins go to: the first of GET /v5/boards.
 */
export class PinterestAuth implements PlatformAuth {
  readonly platform = 'pinterest' as const;
  readonly signsInWithOAuth = true;
  readonly scopes = PINTEREST_SCOPES;
  private readonly oauth: PlatformHttp;
  private readonly api: PlatformHttp;

  constructor(private readonly ctx: AuthContext) {
    this.oauth = new PlatformHttp(mapTokenEndpointError, ctx.retry);
    this.api = new PlatformHttp(mapPinterestError, ctx.retry);
  }

  authorizationUrl({ app, state }: AuthorizationRequest): string {
    return withQuery(signInUrl(this.ctx, PINTEREST_WEB, '/oauth/'), {
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      scope: PINTEREST_SCOPES.join(','),
      state,
    });
  }

  exchangeCode({ app, code }: CodeExchange): Promise<TokenSet> {
    return this.token(app, { grant_type: 'authorization_code', code, redirect_uri: requireApp(app).redirectUri, continuous_refresh: 'true' });
  }

  async identify(tokens: TokenSet): Promise<SignedInAccount[]> {
    const [account, boards] = await Promise.all([this.read(tokens, '/v5/user_account'), this.read(tokens, '/v5/boards?page_size=25')]);
    const username = stringAt(account.body, 'username');
    if (!username) throw malformedAnswer('username');
    // The first board until the user picks one; none (no board yet) leaves the connector to refuse with board_required.
    const boardId = stringAt(arrayAt(boards.body, 'items')[0], 'id');
    return [
      oauth2Account(
        'pinterest',
        {
          platformAccountId: username,
          handle: `@${username}`,
          displayName: stringAt(account.body, 'business_name') || username,
          instanceUrl: null,
          attributes: boardId ? { boardId } : {},
        },
        tokens,
      ),
    ];
  }

  /** Continuous refresh: the answer carries the refresh token to keep from now on. */
  refresh(app: OAuthApp | null, current: StoredCredentials): Promise<TokenSet> {
    return this.token(app, { grant_type: 'refresh_token', refresh_token: refreshTokenOf(current) });
  }

  /** Pinterest offers no token revocation; the user removes the app from their settings. */
  async revoke(): Promise<void> {}

  private token(app: OAuthApp | null, form: Record<string, string>): Promise<TokenSet> {
    const { clientId, clientSecret } = requireApp(app);
    return refusingCredential(() => requestTokens(this.oauth, signInUrl(this.ctx, PINTEREST_API, '/v5/oauth/token'), form, basicHeader(clientId, clientSecret)), isInvalidGrant);
  }

  private read(tokens: TokenSet, path: string): Promise<PlatformResponse> {
    return refusingCredential(() => this.api.send({ method: 'GET', url: `${this.ctx.apiBaseUrl}${path}`, headers: bearerHeader(tokens.accessToken) }), isCredentialError);
  }
}
