import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createBenchDatabase, startService } from './bench-environment';
import { reportFigures } from './report';
import { runScript } from './run-script';

/**
 * npm run bench:bulk: POST /api/v1/posts/bulk with 1,000 scheduled posts in one call, as a CSV
 * upload (not atomic: 100 rows a command) and as a JSON array (atomic: one command, one append),
 * each timed until its answer (the read model shows every post: read-your-writes), with the CPU
 * the gateway and the posts service spent on it (/proc/<pid>/stat, user + system). Short: a few
 * seconds of load.
 */
const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 1000);

/** CPU seconds (user + system) a process has used (Linux: /proc/<pid>/stat fields 14 and 15, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function main(): Promise<void> {
  const db = await createBenchDatabase(5);
  let service: Awaited<ReturnType<typeof startService>> | null = null;
  try {
    const workspace = await db.store.createWorkspace('bulk bench');
    const { key } = await db.store.createKey(workspace.id, ['read', 'write']);
    const identity = { platformAccountId: 'bench-acme', handle: '@acme', displayName: 'Acme', instanceUrl: null, attributes: {} };
    const credentials = { kind: 'static' as const, accessToken: 'bench-token', refreshToken: null, expiresAt: null, refreshTokenExpiresAt: null, scopes: [] };
    await db.accounts.saveSignedIn(workspace.id, { platform: 'mastodon', identity, credentials });
    service = await startService(db, ['projector', 'posts', 'gateway']);
    const scheduledAt = (i: number) => new Date(Date.now() + 30 * 24 * 3600_000 + i * 60_000).toISOString();
    const measured = async (label: string, send: () => Promise<Response>) => {
      const cpuBefore = { gateway: cpuSeconds(service!.pids.gateway), posts: cpuSeconds(service!.pids.posts), projector: cpuSeconds(service!.pids.projector) };
      const started = process.hrtime.bigint();
      const answer = await send();
      const body = (await answer.json()) as { created?: number; refused?: number };
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (answer.status !== 200 || body.created !== ROWS) throw new Error(`${label} answered ${answer.status} ${JSON.stringify(body).slice(0, 300)}`);
      const cpu = {
        gateway: cpuSeconds(service!.pids.gateway) - cpuBefore.gateway,
        posts: cpuSeconds(service!.pids.posts) - cpuBefore.posts,
        projector: cpuSeconds(service!.pids.projector) - cpuBefore.projector,
      };
      process.stdout.write(`${label}: ${ROWS} posts in ${ms.toFixed(0)} ms (${((ROWS / ms) * 1000).toFixed(0)} posts/s); CPU s: gateway ${cpu.gateway.toFixed(2)}, posts ${cpu.posts.toFixed(2)}, projector ${cpu.projector.toFixed(2)}\n`);
      return { ms, postsPerSecond: (ROWS / ms) * 1000, cpuSeconds: cpu };
    };
    const headers = { authorization: `Bearer ${key}` };

    const csv = ['content,accounts,scheduledAt', ...Array.from({ length: ROWS }, (_, i) => `"Bulk post ${i}, from the CSV",mastodon:@acme,${scheduledAt(i)}`)].join('\n');
    const csvImport = await measured('CSV, not atomic', () => {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'posts.csv');
      return fetch(`${service!.url}/api/v1/posts/bulk`, { method: 'POST', headers, body: form });
    });
    const json = { atomic: true, posts: Array.from({ length: ROWS }, (_, i) => ({ content: `Bulk post ${i}, from JSON`, accounts: ['mastodon:@acme'], scheduledAt: scheduledAt(i) })) };
    const jsonImport = await measured('JSON, atomic', () => fetch(`${service!.url}/api/v1/posts/bulk`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(json) }));
    reportFigures('bulk', { rows: ROWS, csvNotAtomic: csvImport, jsonAtomic: jsonImport });
  } finally {
    service?.stop();
    await db.drop();
  }
}

runScript(main);
