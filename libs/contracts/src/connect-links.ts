import type { AccountView } from './account-api';
import type { Platform } from './platforms';

/** How long a connect link lasts unless asked otherwise (one hour), and at most (seven days). */
export const CONNECT_LINK_DEFAULT_TTL_SECONDS = 3600;
export const CONNECT_LINK_MAX_TTL_SECONDS = 7 * 24 * 3600;

/** The white label a connect page wears: the client's name, logo (https) and accent colour (#rgb or #rrggbb). */
export interface ConnectLinkBrand {
  name: string | null;
  logoUrl: string | null;
  accentColor: string | null;
}

/** accounts.connect-link-create: POST /api/v1/connect-links. */
export interface CreateConnectLinkCommand {
  workspaceId: string;
  /** Where the page's "Done" sends the end user, with account_ids (or error); judged like a sign-in's redirectUri. */
  redirectUri: string;
  /** The platforms the page offers; null: every platform. */
  platforms: Platform[] | null;
  expiresInSeconds: number;
  brand: ConnectLinkBrand | null;
}

/** POST /api/v1/connect-links answers the link once (its signature is not stored). */
export interface ConnectLinkCreated {
  id: string;
  url: string;
  expiresAt: string;
}

/** accounts.connect-link-revoke: DELETE /api/v1/connect-links/:id. */
export interface RevokeConnectLinkCommand {
  workspaceId: string;
  id: string;
}

/** The page's commands name their link by the token in its url (signed; no API key). */
export interface ConnectLinkCommand {
  token: string;
}

/** One platform as the page shows it: how it connects and what this link connected on it. */
export interface ConnectLinkPlatform {
  platform: Platform;
  /** oauth: a sign-in on the platform (instance: Mastodon asks for the server first); app_password: Bluesky's handle and app password. */
  connectsWith: 'oauth' | 'instance' | 'app_password';
  accounts: Array<Pick<AccountView, 'id' | 'account' | 'displayName' | 'status'>>;
}

/** accounts.connect-link-open: what the page shows. Nothing of the API key, the redirectUri or any token. */
export interface ConnectLinkPage {
  id: string;
  brand: ConnectLinkBrand | null;
  expiresAt: string;
  platforms: ConnectLinkPlatform[];
}

/** accounts.connect-link-start: the page starts a sign-in whose redirectUri is the page itself. */
export interface StartConnectLinkSignInCommand extends ConnectLinkCommand {
  platform: Platform;
  instanceUrl: string | null;
}

/** The consent url for the browser, and the verifier the page keeps in its cookie (never in a url). */
export interface StartConnectLinkSignInReply {
  authorizationUrl: string;
  verifier: string;
  /** The page's own url, where the sign-in comes back (the cookie's path, and Secure when https). */
  returnUrl: string;
}

/** accounts.connect-link-complete: the sign-in came back to the page with connection_id; the page's cookie holds the verifier. */
export interface CompleteConnectLinkSignInCommand extends ConnectLinkCommand {
  connectionId: string;
  verifier: string;
}

/** accounts.connect-link-app-password: Bluesky through the page. */
export interface ConnectLinkAppPasswordCommand extends ConnectLinkCommand {
  handle: string;
  appPassword: string;
}

/** accounts.connect-link-finish: "Done": the client's redirectUri with account_ids, or error=access_denied when none. */
export interface FinishConnectLinkReply {
  redirectTo: string;
}
