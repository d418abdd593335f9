import { CommandName, CommandReply } from '@app/contracts';
import { NatsConnection } from 'nats';

/**
 * The commands of one event-loop turn that go to the same app travel as one
 * message on its family's batch subject (Subjects.commandBatch), and come back
 * as one message of answers (issue 22: a message less per command each way,
 * and the socket writes and reads that go with it). This file is that wire
 * format, the same JSON a single command travels as, in arrays.
 */

/** The name's part before the dot: every command of a family is served by one app. */
export function familyOf(name: CommandName): string {
  return name.slice(0, name.indexOf('.'));
}

/** One command of a batch: what a single command carries in its subject, its NATS headers and its data. */
export interface BatchedCommand {
  name: CommandName;
  /** x-request-id and the trace context (traceparent, tracestate), as a single command's NATS headers carry them. */
  headers: Record<string, string>;
  payload: unknown;
}

/** An answer to the command at `index` of its batch. */
export type BatchedAnswer = [index: number, reply: CommandReply<unknown>];

/** A message holds at most the server's max_payload (1 MiB unless configured otherwise). */
export function maxMessageBytes(nc: NatsConnection): number {
  return nc.info?.max_payload ?? 1024 * 1024;
}

/**
 * JSON texts packed into as few JSON arrays as fit in `limitBytes` each, in
 * order. A batch of large bodies (512 KiB each at most) would not fit in one
 * message: it leaves in several. A text too large on its own is alone in its array.
 */
export function packJsonArrays(texts: readonly string[], limitBytes: number): string[][] {
  const packs: string[][] = [];
  let pack: string[] = [];
  // The brackets, then a comma before every text but the first.
  let packBytes = 1;
  for (const text of texts) {
    const bytes = Buffer.byteLength(text) + 1;
    if (pack.length > 0 && packBytes + bytes > limitBytes) {
      packs.push(pack);
      pack = [];
      packBytes = 1;
    }
    pack.push(text);
    packBytes += bytes;
  }
  if (pack.length > 0) packs.push(pack);
  return packs;
}

export const jsonArray = (texts: readonly string[]): string => `[${texts.join(',')}]`;
