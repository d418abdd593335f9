import 'reflect-metadata';
import { Command, InvalidArgumentError } from 'commander';
import { isPlatform, isScope, Platform, Scope } from '@app/contracts';
import { createPool, migrate } from '@app/database';
import { TokenCipher, WorkspaceStore } from '@app/workspaces';
import { localDatabase, readLocalState } from './local/local-environment';

/**
 * The admin command line: workspaces, keys and accounts, printing JSON.
 * It reaches the database `npm start` uses (or DATABASE_URL).
 */
function parseScopes(value: string): Scope[] {
  const scopes = value.split(',').map((s) => s.trim()).filter(Boolean);
  const wrong = scopes.filter((s) => !isScope(s));
  if (wrong.length || scopes.length === 0) throw new InvalidArgumentError(`scopes are a comma-separated list of read, write, publish, engage`);
  return scopes as Scope[];
}

function parsePlatform(value: string): Platform {
  if (!isPlatform(value)) throw new InvalidArgumentError(`not a platform identifier: ${value}`);
  return value;
}

async function withStore<T>(work: (store: WorkspaceStore) => Promise<T>): Promise<void> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const database = await localDatabase(log);
  const pool = createPool(database.databaseUrl, 2);
  try {
    await migrate(database.databaseUrl);
    const key = process.env.TOKEN_ENCRYPTION_KEY ?? readLocalState().tokenEncryptionKey;
    const result = await work(new WorkspaceStore(pool, new TokenCipher(Buffer.from(key, 'base64'))));
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await pool.end();
    await database.stop();
  }
}

function fail(message: string): never {
  process.stderr.write(`${JSON.stringify({ error: message })}\n`);
  process.exit(1);
}

const program = new Command('admin').description('Manage workspaces, API keys and connected accounts').showHelpAfterError();

const workspace = program.command('workspace').description('workspaces');
workspace
  .command('create')
  .argument('<name>')
  .action((name: string) => withStore((store) => store.createWorkspace(name)));

const key = program.command('key').description('API keys');
key
  .command('create')
  .requiredOption('--workspace <id>', 'workspace id')
  .requiredOption('--scopes <list>', 'comma-separated: read,write,publish,engage', parseScopes)
  .description('creates a key and prints it once; only its digest is stored')
  .action((options: { workspace: string; scopes: Scope[] }) =>
    withStore(async (store) => {
      if (!(await store.getWorkspace(options.workspace))) fail(`no workspace ${options.workspace}`);
      return store.createKey(options.workspace, options.scopes);
    }),
  );
key
  .command('revoke')
  .argument('<keyId>')
  .action((keyId: string) =>
    withStore(async (store) => {
      if (!(await store.revokeKey(keyId))) fail(`no active key ${keyId}`);
      return { id: keyId, revoked: true };
    }),
  );

const account = program.command('account').description('connected social accounts');
account
  .command('connect')
  .requiredOption('--workspace <id>', 'workspace id')
  .requiredOption('--platform <platform>', 'x, facebook, instagram, linkedin, threads, bluesky, mastodon, tiktok, youtube, pinterest', parsePlatform)
  .requiredOption('--handle <handle>', 'the account handle, e.g. @acme')
  .option('--token <token>', 'the platform access token (stored encrypted)')
  .option('--display-name <name>', 'display name')
  .action((options: { workspace: string; platform: Platform; handle: string; token?: string; displayName?: string }) =>
    withStore(async (store) => {
      if (!(await store.getWorkspace(options.workspace))) fail(`no workspace ${options.workspace}`);
      return store.connectAccount({ workspaceId: options.workspace, platform: options.platform, handle: options.handle, token: options.token, displayName: options.displayName });
    }),
  );
account
  .command('disconnect')
  .argument('<accountId>')
  .action((accountId: string) =>
    withStore(async (store) => (await store.disconnectAccount(accountId)) ?? fail(`no account ${accountId}`)),
  );
account
  .command('list')
  .requiredOption('--workspace <id>', 'workspace id')
  .action((options: { workspace: string }) => withStore((store) => store.listAccounts(options.workspace)));

program.parseAsync(process.argv).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
