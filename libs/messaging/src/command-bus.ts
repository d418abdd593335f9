import { Logger } from '@nestjs/common';
import { CommandName, CommandPayload, CommandReply, CommandResult, DomainError, ErrorCode, Subjects } from '@app/contracts';
import { isDatabaseUnavailable } from '@app/database';
import {
  commandsHandled,
  currentRequestId,
  currentTraceFields,
  extractTraceContext,
  REQUEST_ID_HEADER,
  runInRequestContext,
  traceContextOf,
} from '@app/observability';
import { headers as natsHeaders, JSONCodec, NatsConnection, PublishOptions, Subscription } from 'nats';
import { BatchedAnswer, BatchedCommand, familyOf, jsonArray, maxMessageBytes, packJsonArrays } from './command-batch';
import { ReplyInbox } from './reply-inbox';
import { TurnCork } from './turn-cork';

const codec = JSONCodec();
const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

const unanswered = (family: string) => new DomainError('service_unavailable', `the ${family} service did not answer; retry later`);

export { REQUEST_ID_HEADER };

/** A command waiting for the end of its event-loop turn to be sent. */
interface QueuedCommand {
  name: CommandName;
  payload: unknown;
  /** Taken when the command was asked for: the request it belongs to is no longer current when it leaves. */
  headers: Record<string, string>;
  answer(reply: CommandReply<unknown>): void;
  fail(error: unknown): void;
}

/**
 * Sends commands over NATS request/reply and turns a refusal back into a DomainError.
 * The name decides the payload's and the answer's types (CommandMap in contracts).
 *
 * The commands asked for during one event-loop turn leave right after it
 * (setImmediate, not a timer), in one socket write: those of one family (the
 * app that serves them) as one message on its batch subject, a lone one as a
 * message of its own. Each keeps its own answer, refusal and request context.
 */
export class CommandClient {
  private readonly inbox: ReplyInbox;
  /** This turn's commands, by family; sent when the turn ends. */
  private queued = new Map<string, QueuedCommand[]>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
    timeoutMs: number,
  ) {
    this.inbox = new ReplyInbox(nc, timeoutMs);
  }

  /** requestId defaults to the request, command or event being handled, so it follows the work across services. */
  async request<N extends CommandName>(name: N, payload: CommandPayload<N>, requestId = currentRequestId()): Promise<CommandResult<N>> {
    const headers = currentTraceFields();
    if (requestId) headers[REQUEST_ID_HEADER] = requestId;
    // The handler of `name` answers CommandResult<N>: serveCommands holds it to the same map.
    const reply = await new Promise<CommandReply<unknown>>((answer, fail) => this.enqueue({ name, payload, headers, answer, fail }));
    if (reply.ok) return reply.value as CommandResult<N>;
    const { code, message, ...extra } = reply.error;
    throw new DomainError(code as ErrorCode, message, extra);
  }

  private enqueue(command: QueuedCommand): void {
    if (this.queued.size === 0) setImmediate(() => this.sendQueued());
    const family = familyOf(command.name);
    const queued = this.queued.get(family);
    if (queued) queued.push(command);
    else this.queued.set(family, [command]);
  }

  private sendQueued(): void {
    const queued = this.queued;
    this.queued = new Map();
    for (const [family, commands] of queued) {
      // A lone command goes as a message of its own, without the batch's JSON around it.
      if (commands.length === 1) {
        this.sendOne(commands[0]);
        continue;
      }
      const texts = commands.map(({ name, headers, payload }) => JSON.stringify({ name, headers, payload } satisfies BatchedCommand));
      let first = 0;
      for (const pack of packJsonArrays(texts, maxMessageBytes(this.nc))) {
        const batch = commands.slice(first, first + pack.length);
        first += pack.length;
        if (batch.length === 1) this.sendOne(batch[0]);
        else this.sendBatch(family, batch, jsonArray(pack));
      }
    }
  }

  private sendOne(command: QueuedCommand): void {
    const reply = this.inbox.open({
      answer: (msg) => {
        command.answer(codec.decode(msg.data) as CommandReply<unknown>);
        return true;
      },
      lost: () => command.fail(unanswered(familyOf(command.name))),
    });
    const keys = Object.keys(command.headers);
    const headers = keys.length > 0 ? natsHeaders() : undefined;
    for (const key of keys) headers?.set(key, command.headers[key]);
    this.publish(this.subjects.command(command.name), codec.encode(command.payload), { reply, headers }, [command]);
  }

  private sendBatch(family: string, commands: QueuedCommand[], json: string): void {
    let awaiting = commands.length;
    const reply = this.inbox.open({
      answer: (msg) => {
        for (const [index, answer] of JSON.parse(textDecoder.decode(msg.data)) as BatchedAnswer[]) {
          commands[index].answer(answer);
          awaiting--;
        }
        return awaiting === 0;
      },
      // Nobody took the batch, so none of it ran: an app from before batches (a rolling deploy) serves
      // each command on its own subject, so each goes again alone, and is answered or refused there.
      // Otherwise a command already answered keeps its answer (a promise settles once).
      lost: (why) => (why === 'no_responders' ? commands.forEach((command) => this.sendOne(command)) : commands.forEach((command) => command.fail(unanswered(family)))),
    });
    this.publish(this.subjects.commandBatch(family), textEncoder.encode(json), { reply }, commands);
  }

  private publish(subject: string, data: Uint8Array, options: PublishOptions, commands: QueuedCommand[]): void {
    try {
      this.nc.publish(subject, data, options);
    } catch (error) {
      // A closed or draining connection, a message over max_payload: the caller hears why.
      for (const command of commands) command.fail(error);
    }
  }
}

/** What a handler knows of the command besides its payload. */
export interface CommandContext {
  requestId: string | undefined;
}

/** Answers command `N`: the payload the client sent for it, and the result the client expects back. */
export type CommandHandler<N extends CommandName> = (payload: CommandPayload<N>, context: CommandContext) => Promise<CommandResult<N>>;

/** Each command an app answers, with its handler. */
export type CommandHandlers = { [N in CommandName]?: CommandHandler<N> };

/** A handler once its name is no longer known to the compiler (iterating the map). */
type AnyCommandHandler = (payload: unknown, context: CommandContext) => Promise<unknown>;

/**
 * Answers commands on a queue group, so replicas share the load. A DomainError
 * becomes a refusal reply; anything else an internal_error reply (and is logged
 * by the caller's onError) — the requester is never left to time out.
 * Each command runs in the request context its headers carry (request id,
 * trace context), is counted in commands_handled_total and logged once.
 * A batch (the commands of one client turn for one family, see command-batch.ts)
 * is answered on the family's batch subject, in the same queue group: each of
 * its commands runs exactly as a single one would, and the answers settled in
 * one turn leave together in one message. A command of the batch this app
 * does not serve gets no answer from it, as a single one would not: were a
 * family ever split between two apps (two queue groups), each answers its own
 * and the client gathers both; a command nobody serves times out
 * (service_unavailable).
 */
export function serveCommands(
  nc: NatsConnection,
  subjects: Subjects,
  queue: string,
  handlers: CommandHandlers,
  /** `source`: the command that failed, or the batch subject whose subscription did. */
  onError: (error: unknown, source: string) => void,
): Subscription[] {
  const logger = new Logger(`Commands:${queue}`);
  // The replies of one event-loop turn (the commands one group commit settled) leave in one socket write.
  const cork = new TurnCork();
  // Each handler was typed against its own name's payload when the map was built; the
  // payload decoded here is what a CommandClient sent for that name (typed by the same map).
  const served = new Map(Object.entries(handlers) as Array<[CommandName, AnyCommandHandler]>);

  async function answer(name: CommandName, handler: AnyCommandHandler, payload: unknown, requestId: string | undefined): Promise<CommandReply<unknown>> {
    const started = performance.now();
    let reply: CommandReply<unknown>;
    let outcome: 'ok' | 'refused' | 'error' = 'ok';
    try {
      reply = { ok: true, value: await handler(payload, { requestId }) };
    } catch (error) {
      if (error instanceof DomainError) {
        outcome = 'refused';
        reply = { ok: false, error: error.toBody().error };
      } else {
        outcome = 'error';
        onError(error, name);
        // A lost database is no fault of the caller, who may retry (503 with Retry-After).
        reply = isDatabaseUnavailable(error)
          ? { ok: false, error: { code: 'service_unavailable', message: `the ${familyOf(name)} service cannot reach its database; retry later` } }
          : { ok: false, error: { code: 'internal_error', message: 'the command failed unexpectedly' } };
      }
    }
    commandsHandled.inc({ command: name, outcome });
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    logger.log({ msg: `${name} ${outcome} ${durationMs}ms`, command: name, outcome, durationMs });
    return reply;
  }

  /** The answer to the command at `index` of its batch, or nothing when this app does not serve it. */
  async function answerBatched({ name, headers, payload }: BatchedCommand, index: number): Promise<string | undefined> {
    const handler = served.get(name);
    if (!handler) return undefined;
    const requestId = headers[REQUEST_ID_HEADER] || undefined;
    const reply = await runInRequestContext({ requestId, trace: traceContextOf(headers) }, () => answer(name, handler, payload, requestId));
    return JSON.stringify([index, reply] satisfies BatchedAnswer);
  }

  const single = [...served].map(([name, handler]) =>
    nc.subscribe(subjects.command(name), {
      queue,
      callback: (err, msg) => {
        if (err) return onError(err, name);
        const requestId = msg.headers?.get(REQUEST_ID_HEADER) || undefined;
        void runInRequestContext({ requestId, trace: extractTraceContext(msg.headers) }, async () => {
          const reply = codec.encode(await answer(name, handler, codec.decode(msg.data), requestId));
          cork.run(() => msg.respond(reply));
        });
      },
    }),
  );
  const families = new Set([...served.keys()].map(familyOf));
  const batched = [...families].map((family) =>
    nc.subscribe(subjects.commandBatch(family), {
      queue,
      callback: (err, msg) => {
        if (err) return onError(err, subjects.commandBatch(family));
        const commands = JSON.parse(textDecoder.decode(msg.data)) as BatchedCommand[];
        // The answers settled in one turn leave together (one group commit settles a batch's creates at
        // once: one message), but none waits for a slower neighbour (a bulk import beside a create).
        let settled: string[] = [];
        const sendSettled = (): void => {
          for (const pack of packJsonArrays(settled, maxMessageBytes(nc))) msg.respond(textEncoder.encode(jsonArray(pack)));
          settled = [];
        };
        commands.forEach((command, index) =>
          void answerBatched(command, index).then((answer) => {
            if (answer === undefined) return;
            if (settled.length === 0) cork.run(sendSettled);
            settled.push(answer);
          }),
        );
      },
    }),
  );
  return [...single, ...batched];
}
