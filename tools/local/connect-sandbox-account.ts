import type { Platform } from '@app/contracts';
import type { Account, AccountStore } from '@app/accounts';
import { CredentialKind, expiresIn } from '@app/platforms';
import { documentedConsent, type RunningPlatformSandbox, provisionSignedIn } from '@app/platform-sandbox';

/** How each platform's sandbox-issued credential renews, as its sign-in client would have stored it. */
function credentialKind(platform: Platform, hasRefreshToken: boolean): CredentialKind {
  if (platform === 'bluesky') return 'atproto_session';
  // Instagram keeps the Facebook user's long-lived token (renewed with fb_exchange_token), a page its page token.
  if (platform === 'threads' || platform === 'instagram') return 'long_lived';
  if (platform === 'facebook') return 'meta_page';
  return hasRefreshToken ? 'oauth2_refresh' : 'static';
}

/**
 * Makes an account on the platform sandbox and stores it in a workspace as a completed
 * sign-in would (its identity, the tokens the sandbox issued): the demo's accounts, the
 * tests' and the benches'. `key` files the account's requests and items in the sandbox.
 * The user consented to what the platform's documentation requires of every endpoint we
 * call (documentedConsent), unless `scopes` says what else it granted (an account connected
 * before a feature asked for its scope): the sandbox refuses a call whose token lacks its scope.
 */
export async function connectSandboxAccount(
  store: AccountStore,
  sandbox: RunningPlatformSandbox,
  input: { workspaceId: string; platform: Platform; handle: string; key?: string; attributes?: Record<string, string>; scopes?: string[] },
): Promise<Account> {
  const { identity, tokens } = provisionSignedIn(sandbox, {
    platform: input.platform,
    handle: input.handle,
    key: input.key,
    attributes: input.attributes,
    scopes: input.scopes ?? documentedConsent(input.platform),
  });
  const saved = await store.saveSignedIn(input.workspaceId, {
    platform: input.platform,
    identity,
    credentials: {
      kind: credentialKind(input.platform, tokens.refreshToken !== null),
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: expiresIn(tokens.expiresIn),
      refreshTokenExpiresAt: expiresIn(tokens.refreshExpiresIn),
      scopes: tokens.scopes,
    },
  });
  return saved.account;
}
