import { AccountStore } from '@app/accounts';
import { AppConfig } from '@app/config';
import { EventStore } from '@app/event-store';
import { WorkspaceStore } from '@app/workspaces';

/**
 * What one admin command works on, opened for it and closed once it is done: the
 * stores and configuration the API's own handlers are built from (connecting and
 * disconnecting accounts run ConnectWithCredentialsHandler and DisconnectAccountHandler).
 */
export interface StoreSession {
  /** Workspaces and API keys. */
  workspaces: WorkspaceStore;
  /** Connected accounts, credentials sealed with the configured token encryption key. */
  accounts: AccountStore;
  /** Where account lifecycle events (AccountConnected, AccountDisconnected) are appended. */
  events: EventStore;
  /** Platform endpoints (PLATFORM_SANDBOX_URL, ...), retry policy, platform apps. */
  config: AppConfig;
  close(): Promise<void>;
}

/** Opens the session a command works on; the CLI opens the local database, tests pass their own. */
export type OpenStore = () => Promise<StoreSession>;
