import { isCredentialError } from '../../connector';
import { arrayAt, stringAt } from '../../connectors/connector-context';
import { mapYouTubeError } from '../../connectors/youtube.connector';
import { PlatformCallFailed, PlatformHttp } from '../../http/platform-http';
import type { AuthContext } from '../auth-context';
import {
  bearerHeader,
  isInvalidGrant,
  mapOAuthError,
  oauth2Account,
  refreshTokenOf,
  refusingCredential,
  requestTokens,
  requireApp,
  signInUrl,
  withQuery,
} from '../oauth2';
import type { AuthorizationRequest, CodeExchange, OAuthApp, PlatformAuth, SignedInAccount, StoredCredentials, TokenSet } from '../platform-auth';
import { CredentialRefused } from '../platform-auth';

const GOOGLE_ACCOUNTS = 'https://accounts.google.com';
const GOOGLE_OAUTH2 = 'https://oauth2.googleapis.com';

/** Upload videos, and post and read comments (force-ssl also lets channels.list read the own channel). */
export const YOUTUBE_SCOPES = ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.force-ssl'];

/**
 * Google OAuth 2.0 for web server applications, as "Using OAuth 2.0 for Web Server
 * Applications" describes it for the YouTube Data API
 * (https://developers.google.com/youtube/v3/guides/auth/server-side-web-apps):
 * consent at accounts.google.com/o/oauth2/v2/auth with access_type=offline (a refresh
 * token) and prompt=consent (Google sends the refresh token only with a consent, so a
 * reconnection must ask again), PKCE S256; token, refresh and revoke on oauth2.googleapis.com.
 * Access tokens live an hour; refresh tokens do not rotate (the refresh answer has none).
 * The channel is the account: channels.list mine=true
 * (https://developers.google.com/youtube/v3/docs/channels/list).
 */
export class YouTubeAuth implements PlatformAuth {
  readonly platform = 'youtube' as const;
  readonly signsInWithOAuth = true;
  readonly scopes = YOUTUBE_SCOPES;
  private readonly oauth: PlatformHttp;
  private readonly api: PlatformHttp;

  constructor(private readonly ctx: AuthContext) {
    this.oauth = new PlatformHttp(mapOAuthError, ctx.retry);
    this.api = new PlatformHttp(mapYouTubeError, ctx.retry);
  }

  authorizationUrl({ app, state, codeChallenge }: AuthorizationRequest): string {
    return withQuery(signInUrl(this.ctx, GOOGLE_ACCOUNTS, '/o/oauth2/v2/auth'), {
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: 'code',
      scope: YOUTUBE_SCOPES.join(' '),
      access_type: 'offline',
      prompt: 'consent',
      state,
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
    });
  }

  exchangeCode({ app, code, codeVerifier }: CodeExchange): Promise<TokenSet> {
    const { clientId, clientSecret, redirectUri } = requireApp(app);
    return this.token({ code, client_id: clientId, client_secret: clientSecret, redirect_uri: redirectUri, grant_type: 'authorization_code', code_verifier: codeVerifier });
  }

  async identify(tokens: TokenSet): Promise<SignedInAccount[]> {
    const response = await refusingCredential(
      () => this.api.send({ method: 'GET', url: `${this.ctx.apiBaseUrl}/youtube/v3/channels?part=snippet&mine=true`, headers: bearerHeader(tokens.accessToken) }),
      isCredentialError,
    );
    const channel = arrayAt(response.body, 'items')[0];
    const id = stringAt(channel, 'id');
    // A Google account without a channel answers no items: there is nothing to publish to yet.
    if (!id) throw new CredentialRefused('youtube_channel_required', 'the Google account has no YouTube channel: create one, then connect again');
    const handle = stringAt(channel, 'snippet', 'customUrl') ?? id;
    return [
      oauth2Account(
        'youtube',
        { platformAccountId: id, handle: `@${handle.replace(/^@/, '')}`, displayName: stringAt(channel, 'snippet', 'title') ?? handle, instanceUrl: null, attributes: {} },
        tokens,
      ),
    ];
  }

  /** Google keeps the refresh token (the answer has none: the caller keeps it); invalid_grant = revoked or expired for good. */
  refresh(app: OAuthApp | null, current: StoredCredentials): Promise<TokenSet> {
    const { clientId, clientSecret } = requireApp(app);
    return this.token({ client_id: clientId, client_secret: clientSecret, refresh_token: refreshTokenOf(current), grant_type: 'refresh_token' });
  }

  /** Revoking the refresh token ends the whole grant, its access tokens included. */
  async revoke(_app: OAuthApp | null, current: StoredCredentials): Promise<void> {
    try {
      await this.oauth.send({ method: 'POST', url: signInUrl(this.ctx, GOOGLE_OAUTH2, '/revoke'), form: { token: current.refreshToken ?? current.accessToken } });
    } catch (error) {
      // Google answers 400 invalid_token for a token already expired or revoked: nothing is left to revoke.
      if (!(error instanceof PlatformCallFailed && error.error.code === 'invalid_token')) throw error;
    }
  }

  private token(form: Record<string, string>): Promise<TokenSet> {
    return refusingCredential(() => requestTokens(this.oauth, signInUrl(this.ctx, GOOGLE_OAUTH2, '/token'), form), isInvalidGrant);
  }
}
