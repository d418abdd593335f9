/** Runs a bench's main: its stack trace on stderr and exit code 1 if it fails. */
export function runScript(main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
