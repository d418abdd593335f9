import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { toAccountView } from '@app/accounts';
import { DomainError, isPlatform, isScope, Platform, PLATFORMS, Scope, SCOPES } from '@app/contracts';
import { OAuthApps } from '@app/credentials';
import { PlatformAuthRegistry, platformClientOptions } from '@app/platforms';
import { redirectOrigin, WorkspaceStore } from '@app/workspaces';
import { ConnectWithCredentialsHandler } from '../../apps/accounts/src/connect/connect-with-credentials.handler';
import { DisconnectAccountHandler } from '../../apps/accounts/src/disconnect/disconnect-account.handler';
import { AccountLifecycle } from '../../apps/accounts/src/lifecycle/account-lifecycle';
import { OpenStore, StoreSession } from './store-session';

/** Where the CLI writes (process.stdout/stderr, or a test's buffers). */
export interface TextSink {
  write(text: string): unknown;
}

export interface AdminDependencies {
  stdout: TextSink;
  stderr: TextSink;
  openStore: OpenStore;
}

/** A refusal the admin meant to give (unknown id, ...): printed as JSON, exit code 1. */
class AdminError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseScopes(value: string): Scope[] {
  const scopes = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length) throw new InvalidArgumentError(`unknown scope ${unknown.join(', ')}; scopes are a comma-separated list of ${SCOPES.join(', ')}`);
  if (scopes.length === 0) throw new InvalidArgumentError(`at least one scope is needed, from ${SCOPES.join(', ')}`);
  return scopes as Scope[];
}

function parsePlatform(value: string): Platform {
  if (!isPlatform(value)) throw new InvalidArgumentError(`not a platform identifier: ${value}; platforms are ${PLATFORMS.join(', ')}`);
  return value;
}

/** An instant, as ISO 8601 (what the API's expiresAt takes). */
function parseInstant(value: string): string {
  const instant = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(instant.getTime())) throw new InvalidArgumentError(`not an ISO 8601 time (e.g. 2030-01-01T00:00:00Z): ${value}`);
  return instant.toISOString();
}

/** Ids are UUIDs; saying so beats the database's "invalid input syntax for type uuid". */
function parseId(value: string): string {
  if (!UUID.test(value)) throw new InvalidArgumentError(`not an id (a UUID): ${value}`);
  return value;
}

function parseBooleanOption(value: string): boolean {
  if (value !== 'true' && value !== 'false') throw new InvalidArgumentError(`not true or false: ${value}`);
  return value === 'true';
}

/** A sign-in redirect origin (https://app.example.com), as the workspace's allow list keeps it. */
function parseRedirectOrigin(value: string, previous: string[] = []): string[] {
  const origin = redirectOrigin(value);
  if (!origin) throw new InvalidArgumentError(`not an origin (scheme, host and port only, e.g. https://app.example.com): ${value}`);
  return [...previous, origin];
}

async function requireWorkspace(store: WorkspaceStore, workspaceId: string): Promise<void> {
  if (!(await store.getWorkspace(workspaceId))) throw new AdminError(`no workspace ${workspaceId}`);
}

/**
 * The accounts service's own handlers, built on the session: connecting asks the platform
 * whose credential it is, disconnecting revokes the token where the platform offers it,
 * and both append the account's lifecycle events as the service does.
 */
function accountHandlers({ config, accounts, events }: StoreSession) {
  const auth = new PlatformAuthRegistry(platformClientOptions(config));
  const lifecycle = new AccountLifecycle(accounts, events);
  const apps = new OAuthApps({ apps: config.platformApps, callbackUrl: config.oauthCallbackUrl }, accounts, auth);
  return {
    connect: new ConnectWithCredentialsHandler(config, auth, lifecycle),
    disconnect: new DisconnectAccountHandler(accounts, apps, auth, lifecycle),
  };
}

interface ConnectOptions {
  workspace: string;
  platform: Platform;
  token?: string;
  refreshToken?: string;
  expiresAt?: string;
  appPassword?: string;
  handle?: string;
  instance?: string;
}

/**
 * The admin command line: workspaces, keys and accounts, printing JSON. Built
 * by a function, with its output and store injected and commander's exits
 * turned into CommanderErrors, so it runs in-process (see runAdmin).
 */
export function buildAdminProgram({ stdout, stderr, openStore }: AdminDependencies): Command {
  const withStore = async <T>(work: (session: StoreSession) => Promise<T>): Promise<void> => {
    const session = await openStore();
    try {
      stdout.write(`${JSON.stringify(await work(session), null, 2)}\n`);
    } finally {
      await session.close();
    }
  };

  // Set before any subcommand is added: subcommands copy these settings when created.
  const program = new Command('admin')
    .description('Manage workspaces, API keys and connected accounts')
    .configureOutput({ writeOut: (text) => void stdout.write(text), writeErr: (text) => void stderr.write(text) })
    .exitOverride()
    .showHelpAfterError();

  const workspace = program.command('workspace').description('workspaces');
  workspace
    .command('create')
    .argument('<name>')
    .action((name: string) => withStore(({ workspaces }) => workspaces.createWorkspace(name)));
  workspace
    .command('list')
    .description('every workspace (id, name, createdAt), oldest first')
    .action(() => withStore(({ workspaces }) => workspaces.listWorkspaces()));
  workspace
    .command('redirect-origins')
    .description(
      "shows the origins the workspace's sign-ins may send users back to (POST /api/v1/accounts/connect redirectUri); with --origin (repeatable) replaces them, with --clear allows any public https url again",
    )
    .argument('<workspaceId>', 'workspace id', parseId)
    .option('--origin <origin>', 'an allowed origin, e.g. https://app.example.com (repeat for more)', parseRedirectOrigin)
    .option('--clear', 'no allow list: any redirectUri the service takes')
    .action((workspaceId: string, options: { origin?: string[]; clear?: boolean }) =>
      withStore(async ({ workspaces }) => {
        if (options.origin && options.clear) throw new AdminError('give --origin or --clear, not both');
        await requireWorkspace(workspaces, workspaceId);
        if (options.origin || options.clear) await workspaces.setRedirectOrigins(workspaceId, options.origin ?? []);
        return { workspaceId, redirectOrigins: await workspaces.redirectOrigins(workspaceId) };
      }),
    );
  workspace
    .command('update')
    .description("changes the workspace's settings (as PATCH /api/v1/workspace does) and prints them")
    .argument('<workspaceId>', 'workspace id', parseId)
    .requiredOption('--approval-required <true|false>', 'hold posts written by keys without the approve scope for review', parseBooleanOption)
    .action((workspaceId: string, options: { approvalRequired: boolean }) =>
      withStore(async ({ workspaces }) => {
        await requireWorkspace(workspaces, workspaceId);
        return { workspaceId, ...(await workspaces.updateSettings(workspaceId, { approvalRequired: options.approvalRequired })) };
      }),
    );

  const key = program.command('key').description('API keys');
  key
    .command('create')
    .requiredOption('--workspace <id>', 'workspace id', parseId)
    .requiredOption(
      '--scopes <list>',
      `comma-separated: ${SCOPES.join(',')} (accounts, to connect and disconnect social accounts, webhooks, to manage webhook endpoints, and approve, to review held posts and change the workspace's settings, are only granted when asked for)`,
      parseScopes,
    )
    .description('creates a key and prints it once; only its digest is stored')
    .action((options: { workspace: string; scopes: Scope[] }) =>
      withStore(async ({ workspaces }) => {
        await requireWorkspace(workspaces, options.workspace);
        return workspaces.createKey(options.workspace, options.scopes);
      }),
    );
  key
    .command('revoke')
    .argument('<keyId>', 'key id', parseId)
    .action((keyId: string) =>
      withStore(async ({ workspaces }) => {
        if (!(await workspaces.revokeKey(keyId))) throw new AdminError(`no active key ${keyId}`);
        return { id: keyId, revoked: true };
      }),
    );

  const account = program.command('account').description('connected social accounts');
  account
    .command('connect')
    .description('connects the account a credential belongs to, as POST /api/v1/accounts: the platform says whose it is')
    .requiredOption('--workspace <id>', 'workspace id', parseId)
    .requiredOption('--platform <platform>', PLATFORMS.join(', '), parsePlatform)
    .option('--token <token>', 'the platform access token (stored encrypted)')
    .option('--refresh-token <token>', 'its refresh token, when there is one (stored encrypted)')
    .option('--expires-at <iso>', 'when the access token expires (ISO 8601), when known', parseInstant)
    .option('--app-password <password>', 'Bluesky: an app password (with --handle)')
    .option('--handle <handle>', 'Bluesky: the handle (or DID, or email) the app password signs in as')
    .option('--instance <url>', 'Mastodon: the instance; Bluesky: the PDS (default: the configured endpoint)')
    .action(async (options: ConnectOptions) => {
      if (options.token === undefined && options.appPassword === undefined) {
        throw new AdminError('an account is connected with a credential: --token (and --refresh-token, --expires-at), or --handle and --app-password for Bluesky');
      }
      await withStore(async (session) => {
        await requireWorkspace(session.workspaces, options.workspace);
        return accountHandlers(session).connect.handle({
          workspaceId: options.workspace,
          platform: options.platform,
          accessToken: options.token,
          refreshToken: options.refreshToken,
          expiresAt: options.expiresAt,
          handle: options.handle,
          appPassword: options.appPassword,
          instanceUrl: options.instance,
          pds: options.instance,
        });
      });
    });
  account
    .command('disconnect')
    .description("revokes the account's token where the platform offers it and forgets its credentials")
    .argument('<accountId>', 'account id', parseId)
    .action((accountId: string) =>
      withStore(async (session) => {
        const known = await session.accounts.get(accountId);
        if (!known) throw new AdminError(`no account ${accountId}`);
        return accountHandlers(session).disconnect.handle({ workspaceId: known.workspaceId, accountId });
      }),
    );
  account
    .command('list')
    .requiredOption('--workspace <id>', 'workspace id', parseId)
    .action((options: { workspace: string }) =>
      withStore(async ({ workspaces, accounts }) => {
        await requireWorkspace(workspaces, options.workspace);
        return (await accounts.list(options.workspace)).map(toAccountView);
      }),
    );

  return program;
}

/**
 * Runs one admin command line (the arguments after the script name) and
 * returns the exit code instead of exiting, so a test's process survives.
 * Commander has already printed its own usage errors and help; other
 * failures are printed as `{"error": ...}` on stderr, with the API's error
 * code when a handler refused (`{"error": ..., "code": "invalid_credentials"}`).
 */
export async function runAdmin(args: readonly string[], dependencies: AdminDependencies): Promise<number> {
  try {
    await buildAdminProgram(dependencies).parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const printed = error instanceof DomainError ? { error: error.message, code: error.code } : { error: error instanceof Error ? error.message : String(error) };
    dependencies.stderr.write(`${JSON.stringify(printed)}\n`);
    return 1;
  }
}
