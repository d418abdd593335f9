import 'reflect-metadata';
import { AppConfig } from '@app/config';
import { AppName, InProcessStack } from '../tools/local/in-process-stack';
import { runScript } from './run-script';

/**
 * Apps under benchmark, in processes of their own so the load generator does
 * not share their event loop. Prints one JSON line once it is listening.
 */
async function main(): Promise<void> {
  const config = AppConfig.fromEnv({ ...process.env, PORT: '0', HOST: '127.0.0.1' });
  // The apps to run here, one process per app as in production (argv), or all of them.
  const names = process.argv.slice(2) as AppName[];
  const stack = await new InProcessStack(config, { logger: ['error'] }).start(names.length ? names : undefined);
  process.stdout.write(`${JSON.stringify({ url: stack.gatewayUrl })}\n`);
  process.on('SIGTERM', () => void stack.stop().then(() => process.exit(0)));
}

runScript(main);
