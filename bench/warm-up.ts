import { measure } from './stats';

/** How close the last two warm-up rounds' rates must be for the service to count as warm. */
const STEADY_WITHIN = 0.05;

export interface WarmUp {
  /** Each round's rate, per second, in order: the first is the service cold from its start. */
  rounds: number[];
  total: number;
  perRound: number;
  /** False when the last two rounds still differed by more than 5%: the figures after it may still carry warm-up (or a noisy minute). */
  steady: boolean;
}

/**
 * Runs `task` `total` times, in rounds of `perRound`, before anything is
 * measured. A freshly started Node process runs its code unoptimised until V8
 * has seen it often enough, and the code that runs once per batch (a group
 * commit, a projector write) is seen a tenth as often as the code that runs per
 * request: on the bench machine the apps' CPU per draft kept falling for some
 * 20,000–30,000 drafts (rounds of 6,000 at 2,700, 3,100, 3,700, 3,700 drafts/s;
 * the apps' CPU per draft from 0.36 to 0.26 ms). A warm-up of a few hundred
 * measured that compilation, not the long-running service a deployment is;
 * pgbench, the baseline, is C and runs for ten seconds.
 */
export async function warmUp(total: number, perRound: number, concurrency: number, task: (i: number) => Promise<void>): Promise<WarmUp> {
  const rounds: number[] = [];
  for (let done = 0; done < total; done += perRound) {
    const base = done;
    rounds.push((await measure('warm-up', Math.min(perRound, total - done), concurrency, (i) => task(base + i))).perSecond);
  }
  const [previous, last] = rounds.slice(-2);
  return { rounds, total, perRound, steady: rounds.length >= 2 && Math.abs(last - previous) <= STEADY_WITHIN * previous };
}

export function formatWarmUp(name: string, warm: WarmUp): string {
  const rates = warm.rounds.map((rate) => `${rate.toFixed(0)}/s`).join(', ');
  const verdict =
    warm.rounds.length < 2
      ? 'one round: too few to tell whether the service is warm'
      : warm.steady
        ? 'the last two within 5%'
        : 'the last two more than 5% apart: the figures below may still include warm-up';
  return `warm-up of ${name}, ${warm.total} in rounds of ${warm.perRound}: ${rates} (${verdict})`;
}
