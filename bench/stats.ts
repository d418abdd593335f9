/** Percentile of a sorted sample (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export interface Measured {
  name: string;
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** Runs `task` `count` times with `concurrency` in flight; latencies in ms. */
export async function measure(name: string, count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<Measured> {
  const latencies: number[] = [];
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = process.hrtime.bigint();
        await task(i);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  return { name, count, seconds, perSecond: count / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export function formatRow(m: Measured): string {
  return `${m.name.padEnd(44)} ${String(m.count).padStart(7)} ${m.perSecond.toFixed(0).padStart(9)}/s   p50 ${m.p50.toFixed(2).padStart(7)} ms   p99 ${m.p99.toFixed(2).padStart(7)} ms`;
}
