import { mapBlueskyError } from '../../connectors/bluesky.connector';
import { arrayAt, stringAt } from '../../connectors/connector-context';
import { isCredentialError, PlatformIdentity } from '../../connector';
import { PlatformCallFailed, PlatformHttp, PlatformRequest, PlatformResponse } from '../../http/platform-http';
import { malformedAnswer } from '../../outcome';
import type { AuthContext } from '../auth-context';
import { bearerHeader, refusingCredential } from '../oauth2';
import { CredentialRefused, expiresIn, OAuthApp, PlatformAuth, SignedInAccount, StoredCredentials, TokenSet } from '../platform-auth';

/**
 * The answer of createSession / refreshSession carries no lifetimes: the reference PDS
 * (bluesky-social/atproto, packages/pds account-manager auth helpers) signs access JWTs
 * for 120 minutes and refresh JWTs for 90 days.
 */
const ACCESS_JWT_SECONDS = 2 * 60 * 60;
const REFRESH_JWT_SECONDS = 90 * 24 * 60 * 60;

/**
 * Bluesky (atproto) sign-in with an app password: no browser sign-in. Every call goes to
 * the account's PDS (the url given at log-in, https://bsky.social by default), XRPC
 * procedures per the docs at https://docs.bsky.app/docs/api/ (com-atproto-server-*), with
 * errors in the XRPC shape {"error", "message"} (https://atproto.com/specs/xrpc).
 */
export class BlueskyAuth implements PlatformAuth {
  readonly platform = 'bluesky' as const;
  readonly signsInWithOAuth = false;
  /** An app password's session: no scopes (BLUESKY_DOCUMENTED_SCOPES needs none). */
  readonly scopes: readonly string[] = [];
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: AuthContext) {
    this.http = new PlatformHttp(mapBlueskyError, ctx.retry);
  }

  authorizationUrl(): string {
    return noBrowserSignIn();
  }

  exchangeCode(): Promise<TokenSet> {
    return noBrowserSignIn();
  }

  /**
   * com.atproto.server.createSession (https://docs.bsky.app/docs/api/com-atproto-server-create-session):
   * {identifier (handle, DID or email), password} → {accessJwt, refreshJwt, handle, did, didDoc?}.
   * A wrong password answers 401 AuthenticationRequired "Invalid identifier or password".
   */
  async logIn(input: { identifier: string; password: string; instanceUrl: string | null }): Promise<SignedInAccount[]> {
    const pds = this.pds(input.instanceUrl);
    const response = await this.send({
      method: 'POST',
      url: `${pds}/xrpc/com.atproto.server.createSession`,
      json: { identifier: input.identifier, password: input.password },
    });
    return [signedIn(response.body, pds, sessionTokens(response.body))];
  }

  /** com.atproto.server.getSession (https://docs.bsky.app/docs/api/com-atproto-server-get-session): who an accessJwt belongs to. */
  async identify(tokens: TokenSet, instanceUrl: string | null): Promise<SignedInAccount[]> {
    const pds = this.pds(instanceUrl);
    const response = await this.send({
      method: 'GET',
      url: `${pds}/xrpc/com.atproto.server.getSession`,
      headers: bearerHeader(tokens.accessToken),
    });
    return [signedIn(response.body, pds, tokens)];
  }

  /**
   * com.atproto.server.refreshSession (https://docs.bsky.app/docs/api/com-atproto-server-refresh-session),
   * authorised by the refreshJwt (not the accessJwt). It rotates: the answer's refreshJwt
   * replaces the old one, which the PDS refuses from then on (400 ExpiredToken "Token has been revoked").
   */
  async refresh(_app: OAuthApp | null, current: StoredCredentials, identity: PlatformIdentity): Promise<TokenSet> {
    if (current.refreshToken === null) throw new CredentialRefused('refresh_token_missing', 'the Bluesky session has no refreshJwt to renew it with');
    const response = await this.send({
      method: 'POST',
      url: `${this.pds(identity.instanceUrl)}/xrpc/com.atproto.server.refreshSession`,
      headers: bearerHeader(current.refreshToken),
    });
    return sessionTokens(response.body);
  }

  /**
   * com.atproto.server.deleteSession (https://docs.bsky.app/docs/api/com-atproto-server-delete-session),
   * authorised by the refreshJwt: the session can no longer be refreshed (an accessJwt
   * already issued stays valid until it ends: the PDS does not track them). A session the
   * PDS refuses (expired, already deleted) is already over, so that answer is success too.
   */
  async revoke(_app: OAuthApp | null, current: StoredCredentials, identity: PlatformIdentity): Promise<void> {
    if (current.refreshToken === null) return;
    try {
      await this.http.send({
        method: 'POST',
        url: `${this.pds(identity.instanceUrl)}/xrpc/com.atproto.server.deleteSession`,
        headers: bearerHeader(current.refreshToken),
      });
    } catch (error) {
      if (!(error instanceof PlatformCallFailed && isCredentialError(error.error))) throw error;
    }
  }

  /** A session call: a refused token or password (ExpiredToken, InvalidToken, AuthenticationRequired) is CredentialRefused. */
  private send(request: PlatformRequest): Promise<PlatformResponse> {
    return refusingCredential(() => this.http.send(request), isCredentialError);
  }

  /** The PDS to call: the account's own when known, else the configured host (bsky.social, or the sandbox). */
  private pds(instanceUrl: string | null): string {
    return (instanceUrl ?? this.ctx.signInBaseUrl ?? this.ctx.apiBaseUrl).replace(/\/+$/, '');
  }
}

function noBrowserSignIn(): never {
  throw new CredentialRefused('oauth_not_supported', 'Bluesky accounts connect with a handle and an app password, not a browser sign-in');
}

/** accessJwt and refreshJwt of a createSession / refreshSession answer. */
function sessionTokens(session: unknown): TokenSet {
  const accessJwt = stringAt(session, 'accessJwt');
  const refreshJwt = stringAt(session, 'refreshJwt');
  if (!accessJwt || !refreshJwt) throw malformedAnswer('accessJwt and refreshJwt');
  return { accessToken: accessJwt, refreshToken: refreshJwt, expiresAt: expiresIn(ACCESS_JWT_SECONDS), refreshTokenExpiresAt: expiresIn(REFRESH_JWT_SECONDS), scopes: [] };
}

/** The account a session answer (createSession / getSession) describes; its PDS from the DID document when the answer has one. */
function signedIn(session: unknown, calledPds: string, tokens: TokenSet): SignedInAccount {
  const did = stringAt(session, 'did');
  const handle = stringAt(session, 'handle');
  if (!did || !handle) throw malformedAnswer('did and handle');
  return {
    platform: 'bluesky',
    identity: { platformAccountId: did, handle: `@${handle}`, displayName: handle, instanceUrl: pdsOf(session) ?? calledPds, attributes: {} },
    credentials: { ...tokens, kind: 'atproto_session' },
  };
}

/**
 * The account's PDS: the DID document's service with id `#atproto_pds` and type
 * `AtprotoPersonalDataServer` (https://atproto.com/specs/did). An account may live on
 * another PDS than the entryway it logged in at (bsky.social hands out *.host.bsky.network).
 */
function pdsOf(session: unknown): string | null {
  const service = arrayAt(session, 'didDoc', 'service').find(
    (entry) => stringAt(entry, 'id')?.endsWith('#atproto_pds') && stringAt(entry, 'type') === 'AtprotoPersonalDataServer',
  );
  return stringAt(service, 'serviceEndpoint')?.replace(/\/+$/, '') ?? null;
}
