import { Logger } from '@nestjs/common';
import { PeriodicTask } from './periodic-task';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quiet = new Logger('test');

describe('PeriodicTask', () => {
  let task: PeriodicTask | null = null;
  afterEach(async () => {
    await task?.stop();
    task = null;
  });

  /** A started task with a long interval, and when (ms after it started) each of its runs began. */
  const timedTask = (): { timed: PeriodicTask; runs: number[] } => {
    const runs: number[] = [];
    const started = Date.now();
    const timed = new PeriodicTask('t', 10_000, async () => void runs.push(Date.now() - started), quiet);
    timed.start();
    task = timed;
    return { timed, runs };
  };

  it('runs on its interval, and once more when asked to, in between', async () => {
    const { timed, runs } = timedTask();
    timed.runIn(50);
    await sleep(150);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toBeGreaterThanOrEqual(45);
  });

  it('the latest request replaces an earlier one', async () => {
    const { timed, runs } = timedTask();
    timed.runIn(30);
    timed.runIn(120);
    await sleep(200);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toBeGreaterThanOrEqual(115);
  });

  it('a request that falls during a run runs right after it, never beside it', async () => {
    let running = 0;
    let most = 0;
    const runs: number[] = [];
    task = new PeriodicTask('t', 10_000, async () => {
      running++;
      most = Math.max(most, running);
      runs.push(Date.now());
      await sleep(100);
      running--;
    }, quiet);
    task.start();
    task.runIn(0);
    await sleep(30); // the first run is going on
    task.runIn(0);
    await sleep(250);
    expect(most).toBe(1);
    expect(runs).toHaveLength(2);
    expect(runs[1] - runs[0]).toBeGreaterThanOrEqual(95);
  });

  it('does not run what was asked for once stopped', async () => {
    let runs = 0;
    task = new PeriodicTask('t', 10_000, async () => void runs++, quiet);
    task.start();
    task.runIn(30);
    await task.stop();
    await sleep(60);
    expect(runs).toBe(0);
    task.runIn(0); // stopped: ignored
    await sleep(20);
    expect(runs).toBe(0);
  });
});
