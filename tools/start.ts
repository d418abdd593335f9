import 'reflect-metadata';
import { LogLevel } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { createPool, migrate } from '@app/database';
import { AccountStore, TokenCipher } from '@app/accounts';
import { WorkspaceStore } from '@app/workspaces';
import { ACCESS_LOG_CONTEXT, JsonLogger, logLevelsFrom } from '@app/observability';
import { startPlatformSandbox, trustSandboxCa } from '@app/platform-sandbox';
import { HttpAppOptions } from '@app/runtime';
import { OPENAPI_ROUTES } from '../apps/gateway/src/openapi/openapi-document';
import { ensureDemoWorkspace } from './local/demo-workspace';
import { InProcessStack } from './local/in-process-stack';
import { LOCAL_DIR, localDatabase, localNats, readLocalState } from './local/local-environment';
import { localConfig, localPort, usesSandbox } from './local/local-config';
import { checkPortsFree, explainListenError, LocalPort } from './local/local-ports';
import { forgetSandboxAppRegistrations, prepareSandboxSignIn } from './local/sandbox-users';
import { keepingStopSignals, STOP_SIGNALS, Teardown } from './local/teardown';

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

/** The ports this start will listen on, each with the variable that moves it. */
function localPorts(env: NodeJS.ProcessEnv, sandbox: boolean): LocalPort[] {
  const ports: LocalPort[] = [{ what: 'The API', host: env.HOST || new AppConfig().host, port: localPort(env), variable: 'PORT' }];
  if (sandbox) {
    ports.push({ what: 'The platform sandbox', host: '127.0.0.1', port: Number(env.SANDBOX_PORT || 4010), variable: 'SANDBOX_PORT' });
    ports.push({ what: "The sandbox's media host", host: '127.0.0.1', port: Number(env.SANDBOX_MEDIA_PORT || 4011), variable: 'SANDBOX_MEDIA_PORT' });
  }
  return ports;
}

/**
 * `npm start`: the whole service on one machine with nothing set up beyond
 * Node — embedded Postgres unless DATABASE_URL, NATS from NATS_URL or a
 * nats-server on the PATH — every app in this one process. What it starts is
 * stopped again, in reverse order, if the start fails and on SIGINT, SIGTERM or SIGHUP.
 */
async function main(teardown: Teardown, log: (line: string) => void, logging: ReturnType<typeof startLogging>): Promise<void> {
  const env = process.env;
  const state = readLocalState();
  const withSandbox = usesSandbox(env);
  const ports = localPorts(env, withSandbox);
  await checkPortsFree(ports);

  const database = await keepingStopSignals(() => localDatabase(log));
  teardown.add('PostgreSQL', () => database.stop());
  const nats = await localNats(log);
  teardown.add('nats-server', () => nats.stop());
  await migrate(database.databaseUrl);
  const [, sandboxPort, mediaPort] = ports;
  const sandbox = withSandbox
    ? await startPlatformSandbox({ port: sandboxPort.port, mediaPort: mediaPort.port }).catch((error: unknown) => {
        throw explainListenError(error, ports);
      })
    : null;
  if (sandbox) {
    teardown.add('platform sandbox', () => sandbox.close());
    prepareSandboxSignIn(sandbox);
    log(`platform sandbox on ${sandbox.url} (every platform; see ${sandbox.url}/_sandbox/published)`);
    log(`sandbox media host on ${sandbox.mediaUrl} (e.g. ${sandbox.mediaUrl}/media/photo.jpg as a mediaUrl)`);
    // The media host's certificate comes from the sandbox's own CA; the media fetcher trusts it from here on.
    trustSandboxCa();
  }
  const config = localConfig({ env, databaseUrl: database.databaseUrl, natsUrl: nats.natsUrl, state, sandbox });

  const pool = createPool(config.databaseUrl, 2);
  const accounts = new AccountStore(pool, new TokenCipher(config.tokenEncryptionKey));
  const demo = await (async () => {
    if (sandbox) await forgetSandboxAppRegistrations(accounts, sandbox);
    return ensureDemoWorkspace(new WorkspaceStore(pool), accounts, sandbox, state);
  })().finally(() => pool.end());

  const stack = new InProcessStack(config, logging);
  teardown.add('the apps', () => stack.stop());
  await stack.start().catch((error: unknown) => {
    throw explainListenError(error, ports);
  });
  const url = `http://localhost:${config.port}`;
  process.stdout.write(
    [
      '',
      `Social publishing API on ${url}`,
      `  docs      ${url}/${OPENAPI_ROUTES.ui} (OpenAPI document: ${url}/${OPENAPI_ROUTES.json}; events: ${url}/${OPENAPI_ROUTES.asyncapi})`,
      `  API key   ${demo.key} (demo workspace ${demo.workspaceId}, all scopes)`,
      `  platforms ${sandbox ? `the sandbox on ${sandbox.url} (what was published: ${sandbox.url}/_sandbox/published); sign-in works on every platform` : 'the real ones (PLATFORM_* is set)'}`,
      `  data      ${database.location}; ${nats.location}; key and demo workspace in ${LOCAL_DIR}`,
      'Try:',
      `  curl -s ${url}/api/v1/accounts -H 'Authorization: Bearer ${demo.key}'`,
      `  curl -s ${url}/api/v1/posts -H 'Authorization: Bearer ${demo.key}' -H 'Content-Type: application/json' -d '{"content":"Hello now","accounts":["x:@demo","facebook:@demo_page"],"publishNow":true}'`,
      `Logs: ${env.LOG_LEVEL ? `LOG_LEVEL=${env.LOG_LEVEL}` : 'warnings, errors and one line per request; LOG_LEVEL=log (or debug, verbose) shows everything'}. Admin: npm run admin -- --help`,
      '',
    ].join('\n'),
  );
}

const logging = startLogging();
const logger = new JsonLogger({ levels: logging.logger, alsoLogFrom: logging.alsoLogFrom });
const log = (line: string) => logger.log(line, 'start');
const teardown = new Teardown(log);
for (const signal of STOP_SIGNALS) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void teardown.run().then(() => process.exit(0));
  });
}

main(teardown, log, logging).catch(async (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  await teardown.run();
  process.exit(1);
});
