import { WorkspaceStore } from '@app/workspaces';

/** A workspace store opened for one admin command, closed once the command is done. */
export interface StoreSession {
  store: WorkspaceStore;
  close(): Promise<void>;
}

/** Opens the store a command works on; the CLI opens the local database, tests pass their own. */
export type OpenStore = () => Promise<StoreSession>;
