import { startPlatformSandbox } from './sandbox';

/** Runs the platform sandbox standalone: PORT (default 4010), HOST (default 127.0.0.1). */
async function main(): Promise<void> {
  const sandbox = await startPlatformSandbox({ port: Number(process.env.PORT ?? 4010), host: process.env.HOST ?? '127.0.0.1' });
  console.log(`platform sandbox listening on ${sandbox.url} (platforms under /<platform>, control API under /_sandbox)`);
  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
