import 'reflect-metadata';
import { createInterface } from 'node:readline';
import { NatsConnection } from 'nats';
import { AppConfig } from '@app/config';
import { NATS_CONNECTION } from '@app/messaging';
import { AppName, InProcessStack } from '../tools/local/in-process-stack';
import { AppCounters, countSqlStatements, sqlByStatement } from './app-counters';
import { runScript } from './run-script';

/**
 * Apps under benchmark, in processes of their own so the load generator does
 * not share their event loop. Prints one JSON line once it is listening, and
 * answers each line `counters` on stdin with one line `counters <AppCounters as JSON>`.
 */
async function main(): Promise<void> {
  const sqlStatements = countSqlStatements();
  const config = AppConfig.fromEnv({ ...process.env, PORT: '0', HOST: '127.0.0.1' });
  // The apps to run here, one process per app as in production (argv), or all of them.
  const names = process.argv.slice(2) as AppName[];
  const stack = await new InProcessStack(config, { logger: ['error'] }).start(names.length ? names : undefined);
  const connections = [...stack.apps.values()].map((app) => app.get<symbol, NatsConnection>(NATS_CONNECTION, { strict: false }));
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line !== 'counters') return;
    const counters: AppCounters = { sqlStatements: sqlStatements(), sqlByStatement: sqlByStatement(), natsInMsgs: 0, natsOutMsgs: 0 };
    for (const nc of new Set(connections)) {
      const stats = nc.stats();
      counters.natsInMsgs += stats.inMsgs;
      counters.natsOutMsgs += stats.outMsgs;
    }
    process.stdout.write(`counters ${JSON.stringify(counters)}\n`);
  });
  process.stdout.write(`${JSON.stringify({ url: stack.gatewayUrl })}\n`);
  process.on('SIGTERM', () => void stack.stop().then(() => process.exit(0)));
}

runScript(main);
