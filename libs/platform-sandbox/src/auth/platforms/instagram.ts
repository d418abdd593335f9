import type { SandboxSignIn } from '../sign-in';
import { facebookLoginRoutes } from './facebook';
import { issueLongLived } from './meta';

/**
 * Instagram professional accounts sign in through Facebook Login (the same routes, under
 * /instagram), and the Instagram Graph API takes the managing Facebook user's token ("All
 * requests must include the app user's User access token": Instagram "Content Publishing",
 * https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/content-publishing).
 * Ids look like Meta's IG user ids (17841...). An account provisioned without a managing user
 * gets a long-lived token of its own, so the sandbox files its requests under it.
 */
export const instagramSignIn: SandboxSignIn = {
  platform: 'instagram',
  newAccountId: (auth) => String(17_841_400_000_000_000n + BigInt(auth.nextSeq())),
  issueTokens: (auth, identity, clientId, scopes) => issueLongLived(auth, identity.ownerKey ?? identity.key, clientId, scopes),
  routes: facebookLoginRoutes(),
};
