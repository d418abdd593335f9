import type { Platform } from '@app/contracts';
import { field, RouteAnswer, RouteContext } from '../../dialect';
import type { AuthorizationCode, SandboxAuthority, SandboxIdentity } from '../authority';

/**
 * What the sandbox's OAuth 2.0 sign-in routes share (RFC 6749): the error body (§5.2), the
 * consent step's redirect back to the app (§4.1.2), the signed-in user of a consent step,
 * form parameters, the redemption of a code and the client check of a revocation. Each
 * platform keeps its own parameters, texts and lifetimes.
 */

/** {"error": code, "error_description": text}. */
export function oauthError(status: number, error: string, description: string): RouteAnswer {
  return { status, body: { error, error_description: description } };
}

/** Back to the app's redirect_uri with the code (or the error), and the state it sent. */
export function redirectBack(redirectUri: string, params: Record<string, string>, state: string | undefined): RouteAnswer {
  const location = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...params, ...(state !== undefined ? { state } : {}) })) location.searchParams.set(name, value);
  return { status: 302, headers: { location: location.toString() } };
}

/** A non-empty string parameter of a form (or JSON) body. */
export function param(body: unknown, name: string): string | undefined {
  const value = field(body, name);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The first of `names` the body lacks. */
export function missingParam(body: unknown, names: string[]): string | undefined {
  return names.find((name) => param(body, name) === undefined);
}

/** Who consents at the sandbox's consent step: the `sandbox_user` identity (a key), else the platform's default user. */
export function consentingUser({ store, query }: RouteContext, platform: Platform): SandboxIdentity | undefined {
  const user = query.sandbox_user ? store.auth.identity(query.sandbox_user) : store.auth.defaultUser(platform);
  return user?.platform === platform && user.kind === 'user' ? user : undefined;
}

/**
 * A code redeemed for its client and redirect uri (and PKCE verifier), with the identity it
 * was granted to; undefined for a code the platform will not exchange (it answers its own text).
 */
export function redeemedCode(
  auth: SandboxAuthority,
  code: string,
  check: Parameters<SandboxAuthority['redeemCode']>[1],
): { grant: AuthorizationCode; identity: SandboxIdentity } | undefined {
  const grant = auth.redeemCode(code, check);
  const identity = typeof grant === 'string' ? undefined : auth.identity(grant.identityKey);
  return typeof grant === 'string' || !identity ? undefined : { grant, identity };
}

/** A revocation names a token the sandbox issued to another client (one issued to none, or unknown, is not). */
export function issuedToAnotherClient(auth: SandboxAuthority, token: string, clientId: string | undefined): boolean {
  const issued = auth.tokens.get(token);
  return issued !== undefined && issued.clientId !== null && issued.clientId !== clientId;
}
