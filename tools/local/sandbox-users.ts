import type { AccountStore } from '@app/accounts';
import type { RunningPlatformSandbox } from '@app/platform-sandbox';

/** Who consents on the sandbox's Facebook Login when the consent page names nobody (SandboxAuthority.defaultUser). */
const FACEBOOK_DEFAULT_USER = 'facebook:sandbox_user';

/**
 * Readies the sandbox's default users for signing in under npm start: Facebook Login gives
 * the Pages the user manages and the Instagram accounts linked to them, so a user managing
 * none signs in to nothing (the callback answers invalid_credentials). The default Facebook
 * user manages one Page with a linked Instagram professional account, as a business using
 * the service would. Their handles differ from the demo workspace's, so signing in adds
 * accounts without making the demo's `facebook:@demo_page` ambiguous.
 */
export function prepareSandboxSignIn(sandbox: RunningPlatformSandbox): void {
  const page = sandbox.control.provisionAccount({ platform: 'facebook', handle: 'sandbox_page', kind: 'page', ownerKey: FACEBOOK_DEFAULT_USER }).identity;
  sandbox.control.provisionAccount({ platform: 'instagram', handle: 'sandbox_shop', kind: 'instagram', ownerKey: FACEBOOK_DEFAULT_USER, attributes: { pageId: page.platformAccountId } });
}

/**
 * The sandbox keeps everything in memory, so each start is a new Mastodon instance that knows
 * none of the apps registered on the last one (our app is registered on an instance at first use
 * and remembered): a remembered registration would send the user to a consent page that refuses
 * it (401 invalid_client). Forgetting the sandbox's registrations makes the next sign-in register
 * afresh, on this run's sandbox and with this run's callback (PORT may have changed).
 */
export async function forgetSandboxAppRegistrations(accounts: AccountStore, sandbox: RunningPlatformSandbox): Promise<number> {
  return accounts.forgetRegisteredAppsUnder(sandbox.url);
}
