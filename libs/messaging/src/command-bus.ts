import { Logger } from '@nestjs/common';
import { CommandName, CommandPayload, CommandReply, CommandResult, DomainError, ErrorCode, Subjects } from '@app/contracts';
import { isDatabaseUnavailable } from '@app/database';
import { commandsHandled, currentRequestId, extractTraceContext, injectTraceContext, REQUEST_ID_HEADER, runInRequestContext } from '@app/observability';
import { headers as natsHeaders, JSONCodec, Msg, NatsConnection, Subscription, ErrorCode as NatsErrorCode, NatsError } from 'nats';
import { TurnCork } from './turn-cork';

const codec = JSONCodec();

export { REQUEST_ID_HEADER };

/**
 * Sends commands over NATS request/reply and turns a refusal back into a DomainError.
 * The name decides the payload's and the answer's types (CommandMap in contracts).
 */
export class CommandClient {
  /** The commands of one event-loop turn leave in one socket write. */
  private readonly cork = new TurnCork();

  constructor(
    private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
    private readonly timeoutMs: number,
  ) {}

  /** requestId defaults to the request, command or event being handled, so it follows the work across services. */
  async request<N extends CommandName>(name: N, payload: CommandPayload<N>, requestId = currentRequestId()): Promise<CommandResult<N>> {
    const h = natsHeaders();
    if (requestId) h.set(REQUEST_ID_HEADER, requestId);
    injectTraceContext(h);
    let reply: CommandReply<CommandResult<N>>;
    try {
      const data = codec.encode(payload);
      const msg = await new Promise<Msg>((resolve, reject) =>
        this.cork.run(() => this.nc.request(this.subjects.command(name), data, { timeout: this.timeoutMs, headers: h }).then(resolve, reject)),
      );
      // The handler of `name` answers CommandResult<N>: serveCommands holds it to the same map.
      reply = codec.decode(msg.data) as CommandReply<CommandResult<N>>;
    } catch (error) {
      const code = (error as NatsError).code;
      if (code === NatsErrorCode.Timeout || code === NatsErrorCode.NoResponders) {
        throw new DomainError('service_unavailable', `the ${name.split('.')[0]} service did not answer; retry later`);
      }
      throw error;
    }
    if (reply.ok) return reply.value;
    const { code, message, ...extra } = reply.error;
    throw new DomainError(code as ErrorCode, message, extra);
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
 */
export function serveCommands(
  nc: NatsConnection,
  subjects: Subjects,
  queue: string,
  handlers: CommandHandlers,
  onError: (error: unknown, name: CommandName) => void,
): Subscription[] {
  const logger = new Logger(`Commands:${queue}`);
  // The replies of one event-loop turn (the commands one group commit settled) leave in one socket write.
  const cork = new TurnCork();
  // Each handler was typed against its own name's payload when the map was built; the
  // payload decoded here is what a CommandClient sent for that name (typed by the same map).
  const served = Object.entries(handlers) as Array<[CommandName, AnyCommandHandler]>;
  return served.map(([name, handler]) =>
    nc.subscribe(subjects.command(name), {
      queue,
      callback: (err, msg) => {
        if (err) return onError(err, name);
        const requestId = msg.headers?.get(REQUEST_ID_HEADER) || undefined;
        void runInRequestContext({ requestId, trace: extractTraceContext(msg.headers) }, async () => {
          const started = performance.now();
          let reply: CommandReply<unknown>;
          let outcome: 'ok' | 'refused' | 'error' = 'ok';
          try {
            reply = { ok: true, value: await handler(codec.decode(msg.data), { requestId }) };
          } catch (error) {
            if (error instanceof DomainError) {
              outcome = 'refused';
              reply = { ok: false, error: error.toBody().error };
            } else {
              outcome = 'error';
              onError(error, name);
              // A lost database is no fault of the caller, who may retry (503 with Retry-After).
              reply = isDatabaseUnavailable(error)
                ? { ok: false, error: { code: 'service_unavailable', message: `the ${name.split('.')[0]} service cannot reach its database; retry later` } }
                : { ok: false, error: { code: 'internal_error', message: 'the command failed unexpectedly' } };
            }
          }
          const answer = codec.encode(reply);
          cork.run(() => msg.respond(answer));
          commandsHandled.inc({ command: name, outcome });
          const durationMs = Math.round((performance.now() - started) * 10) / 10;
          logger.log({ msg: `${name} ${outcome} ${durationMs}ms`, command: name, outcome, durationMs });
        });
      },
    }),
  );
}
