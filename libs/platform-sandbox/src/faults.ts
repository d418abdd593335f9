import type { Platform } from '@app/contracts';

/**
 * Faults a test injects per platform and account (the access token the connector sends).
 * - error: answer with the platform's own error body (status, and its code when given);
 * - rate_limit: 429 (or the platform's throttling answer) with its reset header;
 * - latency: wait before handling (then handle normally);
 * - hold: wait before handling until the test releases the fault (removes it, or clears the
 *   faults), then handle normally: a platform that keeps a call for as long as the test needs,
 *   whatever the machine's load (a latency races the caller's own timers);
 * - drop: handle the request — the post IS made — then close the connection without an
 *   answer: the "outcome unknown" case;
 * - partial_upload: the platform keeps only the first `keepBytes` of an upload chunk and
 *   says so in its answer, as a resumable upload may (YouTube's 308 Range, "Resumable
 *   Uploads", Step 4); honoured by the dialects with resumable chunk uploads (YouTube).
 */
export type FaultSpec =
  | { type: 'error'; status: number; code?: string; message?: string }
  | { type: 'rate_limit'; resetAfterSeconds?: number }
  | { type: 'latency'; ms: number }
  | { type: 'hold' }
  | { type: 'drop' }
  | { type: 'partial_upload'; keepBytes: number };

export interface FaultRequest {
  platform: Platform;
  /** The access token the fault applies to; every account of the platform when absent. */
  account?: string;
  /**
   * The sandbox operation it hits: 'publish' (the irreversible call, default), 'comment',
   * 'container', 'upload_session', 'lookup', 'list_comments', 'metrics' (the metrics readings:
   * an item's numbers, an account's followers where asked for them), or '*' for any.
   */
  operation?: string;
  /** How many matching requests it affects; 'always' until cleared. Default 1 (latency and hold: always). */
  times?: number | 'always';
  fault: FaultSpec;
}

export interface ActiveFault {
  id: string;
  platform: Platform;
  account: string | null;
  operation: string;
  remaining: number;
  fault: FaultSpec;
}

export function toActiveFault(id: string, request: FaultRequest): ActiveFault {
  const times = request.times ?? (request.fault.type === 'latency' || request.fault.type === 'hold' ? 'always' : 1);
  return {
    id,
    platform: request.platform,
    account: request.account ?? null,
    operation: request.operation ?? 'publish',
    remaining: times === 'always' ? Number.POSITIVE_INFINITY : times,
    fault: request.fault,
  };
}

export function faultMatches(fault: ActiveFault, platform: Platform, account: string, operation: string): boolean {
  return (
    fault.remaining > 0 &&
    fault.platform === platform &&
    (fault.account === null || fault.account === account) &&
    (fault.operation === '*' || fault.operation === operation)
  );
}
