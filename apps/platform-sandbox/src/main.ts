import { sandboxTlsFile, startPlatformSandbox } from '@app/platform-sandbox';

/**
 * Runs the platform sandbox standalone: SANDBOX_PORT (default 4010), SANDBOX_MEDIA_PORT (default
 * 4011) — the names npm start reads for the sandbox it runs — and HOST (default 127.0.0.1).
 */
async function main(): Promise<void> {
  const sandbox = await startPlatformSandbox({
    port: Number(process.env.SANDBOX_PORT || 4010),
    mediaPort: Number(process.env.SANDBOX_MEDIA_PORT || 4011),
    host: process.env.HOST || '127.0.0.1',
  });
  console.log(`platform sandbox listening on ${sandbox.url} (platforms under /<platform>, control API under /_sandbox)`);
  console.log(`sandbox media host on ${sandbox.mediaUrl}/media/<name>.<ext> (its CA: ${sandboxTlsFile('ca.crt')}, to trust through NODE_EXTRA_CA_CERTS)`);
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
