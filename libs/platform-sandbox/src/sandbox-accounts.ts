import type { Platform } from '@app/contracts';
import type { SandboxIdentity } from './auth/authority';
import type { RunningPlatformSandbox } from './sandbox';

/** Where a federated platform's accounts live in the sandbox: the platform's prefix stands for the instance / PDS. */
export function sandboxInstanceUrl(sandboxUrl: string, platform: Platform): string | null {
  return platform === 'mastodon' || platform === 'bluesky' ? `${sandboxUrl.replace(/\/+$/, '')}/${platform}` : null;
}

/** The kind of identity that posts on each platform: a page on Facebook, a professional account on Instagram, a user elsewhere. */
export function postingKind(platform: Platform): SandboxIdentity['kind'] {
  return platform === 'facebook' ? 'page' : platform === 'instagram' ? 'instagram' : 'user';
}

export interface SandboxAccountInput {
  platform: Platform;
  handle: string;
  /** The name the platform shows for the account; the handle when absent. */
  displayName?: string;
  /** The sandbox's key for the account (items, requests and faults are filed under it); defaults to platform:handle. */
  key?: string;
  kind?: SandboxIdentity['kind'];
  platformAccountId?: string;
  attributes?: Record<string, string>;
  /** The scopes the sign-in granted; none named = the platform's documented ones (documentedConsent). */
  scopes?: string[];
}

/**
 * An account made on the sandbox for a test, signed in: the platform's identity as a
 * connector sees it, and the tokens the platform issued (with their lifetimes).
 */
export function provisionSignedIn(sandbox: RunningPlatformSandbox, input: SandboxAccountInput) {
  const provisioned = sandbox.control.provisionAccount({ ...input, kind: input.kind ?? postingKind(input.platform) });
  const { identity } = provisioned;
  return {
    key: identity.key,
    identity: {
      platformAccountId: identity.platformAccountId,
      handle: `@${identity.handle}`,
      displayName: identity.displayName,
      instanceUrl: sandboxInstanceUrl(sandbox.url, input.platform),
      attributes: { ...identity.attributes },
    },
    tokens: provisioned,
  };
}

/** The same, as a ConnectorAccount for connector tests (its accountId is the sandbox key). */
export function provisionConnectorAccount(sandbox: RunningPlatformSandbox, input: SandboxAccountInput) {
  const { key, identity, tokens } = provisionSignedIn(sandbox, input);
  return { accountId: key, platform: input.platform, identity, credentials: { accessToken: tokens.accessToken } };
}
