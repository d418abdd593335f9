import { Platform, SCOPES } from '@app/contracts';
import type { AccountStore } from '@app/accounts';
import type { WorkspaceStore } from '@app/workspaces';
import type { RunningPlatformSandbox } from '@app/platform-sandbox';
import { connectSandboxAccount } from './connect-sandbox-account';
import { LocalState, writeLocalState } from './local-environment';

/** The demo workspace's accounts (the banner's curl and the OpenAPI create-post example publish to them). */
export const DEMO_ACCOUNTS: Array<{ platform: Platform; handle: string }> = [
  { platform: 'x', handle: '@demo' },
  { platform: 'facebook', handle: '@demo_page' },
  { platform: 'instagram', handle: '@demo_shop' },
  { platform: 'linkedin', handle: '@demo' },
  { platform: 'mastodon', handle: '@demo' },
];

/**
 * The demo workspace and its key, made once and remembered in the local state. Its
 * accounts are signed in on the sandbox at every start: the sandbox forgets its accounts
 * when it stops, so yesterday's tokens would be refused (as a real platform refuses a
 * token it did not issue); signing in again keeps the same account ids.
 */
export async function ensureDemoWorkspace(store: WorkspaceStore, accounts: AccountStore, sandbox: RunningPlatformSandbox | null, state: LocalState): Promise<NonNullable<LocalState['demo']>> {
  if (!state.demo || !(await store.authenticate(state.demo.key))) {
    const workspace = await store.createWorkspace('Demo workspace');
    const key = await store.createKey(workspace.id, [...SCOPES]);
    state.demo = { workspaceId: workspace.id, keyId: key.id, key: key.key };
    writeLocalState(state);
  }
  if (sandbox) {
    for (const account of DEMO_ACCOUNTS) await connectSandboxAccount(accounts, sandbox, { workspaceId: state.demo.workspaceId, ...account });
  }
  return state.demo;
}
