import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { isPlatform, isScope, Platform, PLATFORMS, Scope, SCOPES } from '@app/contracts';
import { WorkspaceStore } from '@app/workspaces';
import { OpenStore } from './store-session';

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

/** Ids are UUIDs; saying so beats the database's "invalid input syntax for type uuid". */
function parseId(value: string): string {
  if (!UUID.test(value)) throw new InvalidArgumentError(`not an id (a UUID): ${value}`);
  return value;
}

async function requireWorkspace(store: WorkspaceStore, workspaceId: string): Promise<void> {
  if (!(await store.getWorkspace(workspaceId))) throw new AdminError(`no workspace ${workspaceId}`);
}

/**
 * The admin command line: workspaces, keys and accounts, printing JSON. Built
 * by a function, with its output and store injected and commander's exits
 * turned into CommanderErrors, so it runs in-process (see runAdmin).
 */
export function buildAdminProgram({ stdout, stderr, openStore }: AdminDependencies): Command {
  const withStore = async <T>(work: (store: WorkspaceStore) => Promise<T>): Promise<void> => {
    const session = await openStore();
    try {
      stdout.write(`${JSON.stringify(await work(session.store), null, 2)}\n`);
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
    .action((name: string) => withStore((store) => store.createWorkspace(name)));

  const key = program.command('key').description('API keys');
  key
    .command('create')
    .requiredOption('--workspace <id>', 'workspace id', parseId)
    .requiredOption('--scopes <list>', `comma-separated: ${SCOPES.join(',')}`, parseScopes)
    .description('creates a key and prints it once; only its digest is stored')
    .action((options: { workspace: string; scopes: Scope[] }) =>
      withStore(async (store) => {
        await requireWorkspace(store, options.workspace);
        return store.createKey(options.workspace, options.scopes);
      }),
    );
  key
    .command('revoke')
    .argument('<keyId>', 'key id', parseId)
    .action((keyId: string) =>
      withStore(async (store) => {
        if (!(await store.revokeKey(keyId))) throw new AdminError(`no active key ${keyId}`);
        return { id: keyId, revoked: true };
      }),
    );

  const account = program.command('account').description('connected social accounts');
  account
    .command('connect')
    .requiredOption('--workspace <id>', 'workspace id', parseId)
    .requiredOption('--platform <platform>', PLATFORMS.join(', '), parsePlatform)
    .requiredOption('--handle <handle>', 'the account handle, e.g. @acme')
    .option('--token <token>', 'the platform access token (stored encrypted)')
    .option('--display-name <name>', 'display name')
    .action((options: { workspace: string; platform: Platform; handle: string; token?: string; displayName?: string }) =>
      withStore(async (store) => {
        await requireWorkspace(store, options.workspace);
        return store.connectAccount({ workspaceId: options.workspace, platform: options.platform, handle: options.handle, token: options.token, displayName: options.displayName });
      }),
    );
  account
    .command('disconnect')
    .argument('<accountId>', 'account id', parseId)
    .action((accountId: string) =>
      withStore(async (store) => {
        const disconnected = await store.disconnectAccount(accountId);
        if (!disconnected) throw new AdminError(`no account ${accountId}`);
        return disconnected;
      }),
    );
  account
    .command('list')
    .requiredOption('--workspace <id>', 'workspace id', parseId)
    .action((options: { workspace: string }) =>
      withStore(async (store) => {
        await requireWorkspace(store, options.workspace);
        return store.listAccounts(options.workspace);
      }),
    );

  return program;
}

/**
 * Runs one admin command line (the arguments after the script name) and
 * returns the exit code instead of exiting, so a test's process survives.
 * Commander has already printed its own usage errors and help; other
 * failures are printed as `{"error": ...}` on stderr.
 */
export async function runAdmin(args: readonly string[], dependencies: AdminDependencies): Promise<number> {
  try {
    await buildAdminProgram(dependencies).parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    dependencies.stderr.write(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
    return 1;
  }
}
