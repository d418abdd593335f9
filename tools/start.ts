import 'reflect-metadata';
import { LogLevel } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { Platform } from '@app/contracts';
import { createPool, migrate } from '@app/database';
import { AccountStore, TokenCipher } from '@app/accounts';
import { WorkspaceStore } from '@app/workspaces';
import { ACCESS_LOG_CONTEXT, JsonLogger, logLevelsFrom } from '@app/observability';
import { RunningPlatformSandbox, startPlatformSandbox, trustSandboxCa } from '@app/platform-sandbox';
import { HttpAppOptions } from '@app/runtime';
import { OPENAPI_ROUTES } from '../apps/gateway/src/openapi/openapi-document';
import { connectSandboxAccount } from './local/connect-sandbox-account';
import { InProcessStack } from './local/in-process-stack';
import { LOCAL_DIR, localDatabase, localNats, LocalState, readLocalState, writeLocalState } from './local/local-environment';

const DEMO_ACCOUNTS: Array<{ platform: Platform; handle: string }> = [
  { platform: 'x', handle: '@demo' },
  { platform: 'facebook', handle: '@demo_page' },
  { platform: 'instagram', handle: '@demo_shop' },
  { platform: 'linkedin', handle: '@demo' },
  { platform: 'mastodon', handle: '@demo' },
];

/** How often `npm start` polls the sandbox for comments unless COMMENTS_POLL_INTERVAL_MS says otherwise (the real platforms' defaults are minutes). */
const LOCAL_COMMENTS_POLL_INTERVAL_MS = 3_000;

/**
 * The demo workspace and its key, made once and remembered in the local state. Its
 * accounts are signed in on the sandbox at every start: the sandbox forgets its accounts
 * when it stops, so yesterday's tokens would be refused (as a real platform refuses a
 * token it did not issue); signing in again keeps the same account ids.
 */
async function ensureDemoWorkspace(store: WorkspaceStore, accounts: AccountStore, sandbox: RunningPlatformSandbox | null, state: LocalState): Promise<NonNullable<LocalState['demo']>> {
  if (!state.demo || !(await store.authenticate(state.demo.key))) {
    const workspace = await store.createWorkspace('Demo workspace');
    const key = await store.createKey(workspace.id, ['read', 'write', 'publish', 'engage', 'accounts', 'webhooks']);
    state.demo = { workspaceId: workspace.id, keyId: key.id, key: key.key };
    writeLocalState(state);
  }
  if (sandbox) {
    for (const account of DEMO_ACCOUNTS) await connectSandboxAccount(accounts, sandbox, { workspaceId: state.demo.workspaceId, ...account });
  }
  return state.demo;
}

/** MEDIA_ALLOWED_HOSTS as configured, plus the sandbox's media host (on loopback, so refused otherwise). */
function withSandboxMediaHost(configured: string | undefined, mediaUrl: string): string {
  return [configured, new URL(mediaUrl).host].filter(Boolean).join(',');
}

/** npm start without LOG_LEVEL: warnings and errors, and of the log-level lines only the access log. */
const QUIET_LEVELS: LogLevel[] = ['warn', 'error', 'fatal'];

/**
 * What npm start writes: with LOG_LEVEL, those levels from everything (LOG_LEVEL=log brings Nest's
 * module loading and the start's own progress back); without, the banner is the first thing a
 * newcomer reads, followed only by warnings, errors and one line per request.
 */
function startLogging(): HttpAppOptions & { logger: LogLevel[] } {
  const levels = logLevelsFrom(process.env.LOG_LEVEL);
  return levels ? { logger: levels } : { logger: QUIET_LEVELS, alsoLogFrom: [ACCESS_LOG_CONTEXT] };
}

/**
 * `npm start`: the whole service on one machine with nothing set up beyond
 * Node — embedded Postgres unless DATABASE_URL, NATS from NATS_URL or a
 * nats-server on the PATH — every app in this one process.
 */
async function main(): Promise<void> {
  const logging = startLogging();
  const logger = new JsonLogger({ levels: logging.logger, alsoLogFrom: logging.alsoLogFrom });
  const log = (line: string) => logger.log(line, 'start');
  const state = readLocalState();
  const database = await localDatabase(log);
  const nats = await localNats(log).catch(async (error: unknown) => {
    await database.stop();
    throw error;
  });
  await migrate(database.databaseUrl);
  // Unless the platforms are configured, everything publishes to the local platform sandbox.
  const configured = Object.keys(process.env).some((name) => name.startsWith('PLATFORM_'));
  const sandbox = configured ? null : await startPlatformSandbox({ port: Number(process.env.SANDBOX_PORT ?? 4010), mediaPort: Number(process.env.SANDBOX_MEDIA_PORT ?? 4011) });
  if (sandbox) {
    log(`platform sandbox on ${sandbox.url} (every platform; see ${sandbox.url}/_sandbox/published)`);
    log(`sandbox media host on ${sandbox.mediaUrl} (e.g. ${sandbox.mediaUrl}/media/photo.jpg as a mediaUrl)`);
    // The media host's certificate comes from the sandbox's own CA; the media fetcher trusts it from here on.
    trustSandboxCa();
  }
  const config = AppConfig.fromEnv({
    ...process.env,
    DATABASE_URL: database.databaseUrl,
    NATS_URL: nats.natsUrl,
    TOKEN_ENCRYPTION_KEY: process.env.TOKEN_ENCRYPTION_KEY ?? state.tokenEncryptionKey,
    ...(sandbox
      ? {
          PLATFORM_SANDBOX_URL: sandbox.url,
          MEDIA_ALLOWED_HOSTS: withSandboxMediaHost(process.env.MEDIA_ALLOWED_HOSTS, sandbox.mediaUrl),
          // The sandbox has no read quota to spare: a comment left on it shows in the list within seconds.
          COMMENTS_POLL_INTERVAL_MS: process.env.COMMENTS_POLL_INTERVAL_MS ?? String(LOCAL_COMMENTS_POLL_INTERVAL_MS),
        }
      : {}),
    // A local run is development: a sign-in may send the user back to a client on this machine (over http).
    OAUTH_REDIRECT_ALLOWED_HOSTS: process.env.OAUTH_REDIRECT_ALLOWED_HOSTS ?? 'localhost,127.0.0.1,[::1]',
  });

  const pool = createPool(config.databaseUrl, 2);
  const demo = await ensureDemoWorkspace(new WorkspaceStore(pool), new AccountStore(pool, new TokenCipher(config.tokenEncryptionKey)), sandbox, state);
  await pool.end();

  const stack = await new InProcessStack(config, logging).start();
  const url = `http://localhost:${config.port}`;
  process.stdout.write(
    [
      '',
      `Social publishing API on ${url}`,
      `  docs      ${url}/${OPENAPI_ROUTES.ui} (OpenAPI document: ${url}/${OPENAPI_ROUTES.json})`,
      `  API key   ${demo.key} (demo workspace, all scopes)`,
      `  platforms ${sandbox ? `the sandbox on ${sandbox.url} (what was published: ${sandbox.url}/_sandbox/published)` : 'the real ones (PLATFORM_* is set)'}`,
      `  data      ${database.location}; ${nats.location}; key and demo workspace in ${LOCAL_DIR}`,
      'Try:',
      `  curl -s ${url}/api/v1/accounts -H 'Authorization: Bearer ${demo.key}'`,
      `  curl -s ${url}/api/v1/posts -H 'Authorization: Bearer ${demo.key}' -H 'Content-Type: application/json' -d '{"content":"Hello now","accounts":["x:@demo","facebook:@demo_page"],"publishNow":true}'`,
      `Logs: ${process.env.LOG_LEVEL ? `LOG_LEVEL=${process.env.LOG_LEVEL}` : 'warnings, errors and one line per request; LOG_LEVEL=log (or debug, verbose) shows everything'}. Admin: npm run admin -- --help`,
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    log('stopping');
    await stack.stop();
    await sandbox?.close();
    await nats.stop();
    await database.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
