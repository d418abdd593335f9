import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * The sandbox's test-only TLS material (libs/platform-sandbox/tls: a CA and the media host's
 * certificate for 127.0.0.1, localhost and ::1), found from here in src/ and in dist/ alike.
 */
export function sandboxTlsFile(name: 'ca.crt' | 'server.crt' | 'server.key'): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'libs', 'platform-sandbox', 'tls', name);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`libs/platform-sandbox/tls/${name} not found above ${__dirname}`);
}

/**
 * Makes the media fetcher (which reads NODE_EXTRA_CA_CERTS when it is built) trust the
 * sandbox's CA: the variable names the CA, or, when it already named another file (a
 * system bundle), a bundle of both, so neither trust is lost. For tests and `npm start` only.
 */
export function trustSandboxCa(env: NodeJS.ProcessEnv = process.env): void {
  const sandboxCa = sandboxTlsFile('ca.crt');
  const current = env.NODE_EXTRA_CA_CERTS;
  if (!current || resolve(current) === sandboxCa || !existsSync(current)) {
    env.NODE_EXTRA_CA_CERTS = sandboxCa;
    return;
  }
  const pem = `${readFileSync(current, 'utf8').trimEnd()}\n${readFileSync(sandboxCa, 'utf8')}`;
  const bundle = join(tmpdir(), `sandbox-extra-ca-${createHash('sha256').update(pem).digest('hex').slice(0, 16)}.pem`);
  if (!existsSync(bundle)) {
    // Written aside and renamed: parallel test workers never read a half-written bundle.
    const partial = `${bundle}.${process.pid}.tmp`;
    writeFileSync(partial, pem);
    renameSync(partial, bundle);
  }
  env.NODE_EXTRA_CA_CERTS = bundle;
}
