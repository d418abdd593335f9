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
