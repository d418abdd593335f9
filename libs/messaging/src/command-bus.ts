import { Logger } from '@nestjs/common';
import { ErrorCode, Subjects, CommandName, CommandReply, DomainError } from '@app/contracts';
import { isDatabaseUnavailable } from '@app/database';
import { commandsHandled, currentRequestId, extractTraceContext, injectTraceContext, REQUEST_ID_HEADER, runInRequestContext } from '@app/observability';
import { headers as natsHeaders, JSONCodec, NatsConnection, Subscription, ErrorCode as NatsErrorCode, NatsError } from 'nats';

const codec = JSONCodec();

export { REQUEST_ID_HEADER };

/** Sends commands over NATS request/reply and turns a refusal back into a DomainError. */
export class CommandClient {
  constructor(
    private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
    private readonly timeoutMs: number,
  ) {}

  /** requestId defaults to the request, command or event being handled, so it follows the work across services. */
  async request<T>(name: CommandName, payload: unknown, requestId = currentRequestId()): Promise<T> {
    const h = natsHeaders();
    if (requestId) h.set(REQUEST_ID_HEADER, requestId);
    injectTraceContext(h);
    let reply: CommandReply<T>;
    try {
      const msg = await this.nc.request(this.subjects.command(name), codec.encode(payload), { timeout: this.timeoutMs, headers: h });
      reply = codec.decode(msg.data) as CommandReply<T>;
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

export type CommandHandler = (payload: unknown, context: { requestId: string | undefined }) => Promise<unknown>;

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
  handlers: Partial<Record<CommandName, CommandHandler>>,
  onError: (error: unknown, name: CommandName) => void,
): Subscription[] {
  const logger = new Logger(`Commands:${queue}`);
  return Object.entries(handlers).map(([name, handler]) =>
    nc.subscribe(subjects.command(name as CommandName), {
      queue,
      callback: (err, msg) => {
        if (err) return onError(err, name as CommandName);
        const requestId = msg.headers?.get(REQUEST_ID_HEADER) || undefined;
        void runInRequestContext({ requestId, trace: extractTraceContext(msg.headers) }, async () => {
          const started = performance.now();
          let reply: CommandReply<unknown>;
          let outcome: 'ok' | 'refused' | 'error' = 'ok';
          try {
            reply = { ok: true, value: await handler!(codec.decode(msg.data), { requestId }) };
          } catch (error) {
            if (error instanceof DomainError) {
              outcome = 'refused';
              reply = { ok: false, error: error.toBody().error };
            } else {
              outcome = 'error';
              onError(error, name as CommandName);
              // A lost database is no fault of the caller, who may retry (503 with Retry-After).
              reply = isDatabaseUnavailable(error)
                ? { ok: false, error: { code: 'service_unavailable', message: `the ${name.split('.')[0]} service cannot reach its database; retry later` } }
                : { ok: false, error: { code: 'internal_error', message: 'the command failed unexpectedly' } };
            }
          }
          msg.respond(codec.encode(reply));
          commandsHandled.inc({ command: name, outcome });
          const durationMs = Math.round((performance.now() - started) * 10) / 10;
          logger.log({ msg: `${name} ${outcome} ${durationMs}ms`, command: name, outcome, durationMs });
        });
      },
    }),
  );
}
