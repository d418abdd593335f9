import { createHash, randomBytes } from 'node:crypto';
import type { Platform } from '@app/contracts';

/**
 * The sandbox's sign-in authority, shared by every platform's sign-in routes: who exists
 * on each platform (identities), which tokens it has issued to whom and until when, the
 * authorization codes of the consent step, and a clock tests move forward so tokens
 * expire without waiting. Every platform route resolves its bearer token here: a token
 * the sandbox never issued, or one expired or revoked, is refused like the platform does.
 */
export interface SandboxIdentity {
  /** Stable key of the account in the sandbox: items, requests and faults are filed under it. */
  key: string;
  platform: Platform;
  /** The platform's id for it (x user id, page id, ig user id, person URN, DID, ...). */
  platformAccountId: string;
  /** Without the @. */
  handle: string;
  displayName: string;
  /** user: a person's sign-in; page / instagram / organization: an account the user manages. */
  kind: 'user' | 'page' | 'instagram' | 'organization';
  /** For page / instagram / organization: the user identity who manages it. */
  ownerKey: string | null;
  /** Platform-specific facts (pinterest boardId, a page's linked instagram key, a Bluesky password...). */
  attributes: Record<string, string>;
}

export interface IssuedToken {
  token: string;
  kind: 'access' | 'refresh';
  identityKey: string;
  clientId: string | null;
  scopes: string[];
  /** On the sandbox clock; null = never expires. */
  expiresAtMs: number | null;
  revoked: boolean;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string | null;
  /** Seconds, as token endpoints say it; null when the access token does not expire. */
  expiresIn: number | null;
  refreshExpiresIn: number | null;
  scopes: string[];
}

export interface IssueOptions {
  clientId?: string | null;
  scopes?: string[];
  /** Access token lifetime in seconds; null = never expires. */
  accessTtlSeconds?: number | null;
  /** Refresh token lifetime in seconds; undefined = no refresh token; null = never expires. */
  refreshTtlSeconds?: number | null;
}

export interface AuthorizationCode {
  code: string;
  identityKey: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  scopes: string[];
  expiresAtMs: number;
  used: boolean;
}

export type TokenCheck = { ok: true; identity: SandboxIdentity; token: IssuedToken } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' };

export interface ProvisionInput {
  platform: Platform;
  handle: string;
  key?: string;
  displayName?: string;
  kind?: SandboxIdentity['kind'];
  ownerKey?: string | null;
  platformAccountId?: string;
  attributes?: Record<string, string>;
}

/** Authorization codes live ten minutes, as on most platforms. */
const CODE_TTL_MS = 10 * 60_000;

export class SandboxAuthority {
  readonly identities = new Map<string, SandboxIdentity>();
  readonly tokens = new Map<string, IssuedToken>();
  readonly codes = new Map<string, AuthorizationCode>();
  /** Registered OAuth clients (Mastodon registers per instance; others are accepted as configured). */
  readonly clients = new Map<string, { clientId: string; clientSecret: string; redirectUris: string[]; platform: Platform }>();
  private clockOffsetMs = 0;
  private sequence = 0;

  /** The sandbox's time: real time plus whatever tests advanced it by. */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  advanceClock(seconds: number): void {
    this.clockOffsetMs += seconds * 1000;
  }

  nextSeq(): number {
    return ++this.sequence;
  }

  /** Creates (or returns) an identity; ids default to a platform-looking number. */
  provision(input: ProvisionInput): SandboxIdentity {
    const handle = input.handle.replace(/^@/, '');
    const key = input.key ?? `${input.platform}:${handle}`;
    const existing = this.identities.get(key);
    if (existing) return existing;
    const identity: SandboxIdentity = {
      key,
      platform: input.platform,
      platformAccountId: input.platformAccountId ?? String(9_000_000_000 + this.nextSeq()),
      handle,
      displayName: input.displayName ?? handle,
      kind: input.kind ?? 'user',
      ownerKey: input.ownerKey ?? null,
      attributes: { ...input.attributes },
    };
    this.identities.set(key, identity);
    return identity;
  }

  identity(key: string): SandboxIdentity | undefined {
    return this.identities.get(key);
  }

  /** The identity of a platform with this platform id (page id, DID, URN...). */
  byPlatformId(platform: Platform, platformAccountId: string): SandboxIdentity | undefined {
    return [...this.identities.values()].find((identity) => identity.platform === platform && identity.platformAccountId === platformAccountId);
  }

  /** Identities a user manages (pages, instagram accounts, organizations). */
  managedBy(userKey: string): SandboxIdentity[] {
    return [...this.identities.values()].filter((identity) => identity.ownerKey === userKey);
  }

  /** The platform's default signed-in user, for consent steps that do not name one. */
  defaultUser(platform: Platform): SandboxIdentity {
    return this.provision({ platform, handle: 'sandbox_user', key: `${platform}:sandbox_user` });
  }

  issue(identityKey: string, options: IssueOptions = {}): TokenPair {
    const now = this.now();
    const scopes = options.scopes ?? [];
    const clientId = options.clientId ?? null;
    const accessTtl = options.accessTtlSeconds === undefined ? 3600 : options.accessTtlSeconds;
    const access = this.store({ token: this.mint('at'), kind: 'access', identityKey, clientId, scopes, expiresAtMs: accessTtl === null ? null : now + accessTtl * 1000, revoked: false });
    let refresh: IssuedToken | null = null;
    if (options.refreshTtlSeconds !== undefined) {
      const ttl = options.refreshTtlSeconds;
      refresh = this.store({ token: this.mint('rt'), kind: 'refresh', identityKey, clientId, scopes, expiresAtMs: ttl === null ? null : now + ttl * 1000, revoked: false });
    }
    return {
      accessToken: access.token,
      refreshToken: refresh?.token ?? null,
      expiresIn: accessTtl,
      refreshExpiresIn: refresh ? options.refreshTtlSeconds ?? null : null,
      scopes,
    };
  }

  /** Resolves a bearer token as a platform API does: unknown, expired and revoked tokens are refused. */
  check(token: string, kind: IssuedToken['kind'] = 'access'): TokenCheck {
    const issued = this.tokens.get(token);
    if (!issued || issued.kind !== kind) return { ok: false, reason: 'unknown' };
    if (issued.revoked) return { ok: false, reason: 'revoked' };
    if (issued.expiresAtMs !== null && issued.expiresAtMs <= this.now()) return { ok: false, reason: 'expired' };
    const identity = this.identities.get(issued.identityKey);
    if (!identity) return { ok: false, reason: 'revoked' };
    return { ok: true, identity, token: issued };
  }

  /** The consent step: the user approves at once (tests) and the platform hands out a code. */
  grantCode(input: Omit<AuthorizationCode, 'code' | 'expiresAtMs' | 'used'>): string {
    const code = this.mint('code');
    this.codes.set(code, { ...input, code, expiresAtMs: this.now() + CODE_TTL_MS, used: false });
    return code;
  }

  /**
   * Redeems a code once; checks the client, the redirect uri and, when the consent step
   * had a PKCE challenge, the verifier (S256 or plain). Answers why it refused, for the
   * platform's own error body.
   */
  redeemCode(code: string, check: { clientId: string | null; redirectUri: string | null; codeVerifier: string | null }): AuthorizationCode | string {
    const grant = this.codes.get(code);
    if (!grant || grant.used || grant.expiresAtMs <= this.now()) return 'the authorization code is invalid, expired or already used';
    if (check.clientId !== null && grant.clientId !== check.clientId) return 'the authorization code was issued to another client';
    if (check.redirectUri !== null && grant.redirectUri !== check.redirectUri) return 'redirect_uri does not match the one of the authorization request';
    if (grant.codeChallenge !== null) {
      if (!check.codeVerifier) return 'code_verifier is required';
      const derived = grant.codeChallengeMethod === 'plain' ? check.codeVerifier : createHash('sha256').update(check.codeVerifier).digest('base64url');
      if (derived !== grant.codeChallenge) return 'code_verifier does not match the code_challenge';
    }
    grant.used = true;
    return grant;
  }

  /**
   * A refresh_token grant. With `rotate`, the old refresh token is spent: using it again
   * fails (X and TikTok rotate, which is why two concurrent refreshes lose the account).
   */
  refresh(refreshToken: string, options: { clientId: string | null; rotate: boolean; accessTtlSeconds: number | null; refreshTtlSeconds: number | null }): TokenPair | string {
    const checked = this.check(refreshToken, 'refresh');
    if (!checked.ok) return `the refresh token is ${checked.reason === 'unknown' ? 'invalid' : checked.reason}`;
    if (options.clientId !== null && checked.token.clientId !== null && checked.token.clientId !== options.clientId) return 'the refresh token was issued to another client';
    if (options.rotate) checked.token.revoked = true;
    const pair = this.issue(checked.identity.key, {
      clientId: checked.token.clientId,
      scopes: checked.token.scopes,
      accessTtlSeconds: options.accessTtlSeconds,
      refreshTtlSeconds: options.rotate ? options.refreshTtlSeconds : undefined,
    });
    return options.rotate ? pair : { ...pair, refreshToken: refreshToken, refreshExpiresIn: null };
  }

  /** Revokes a token; revoking either token of a grant ends the whole grant (as RFC 7009 allows and most platforms do). */
  revoke(token: string): boolean {
    const issued = this.tokens.get(token);
    if (!issued) return false;
    for (const other of this.tokens.values()) {
      if (other.identityKey === issued.identityKey && other.clientId === issued.clientId) other.revoked = true;
    }
    issued.revoked = true;
    return true;
  }

  /** Every token of an identity stops working (the user revoked the app, or changed their password). */
  revokeIdentity(identityKey: string): void {
    for (const issued of this.tokens.values()) if (issued.identityKey === identityKey) issued.revoked = true;
  }

  reset(): void {
    this.identities.clear();
    this.tokens.clear();
    this.codes.clear();
    this.clients.clear();
    this.clockOffsetMs = 0;
  }

  private store(token: IssuedToken): IssuedToken {
    this.tokens.set(token.token, token);
    return token;
  }

  private mint(prefix: string): string {
    return `sbx_${prefix}_${randomBytes(18).toString('base64url')}`;
  }
}
