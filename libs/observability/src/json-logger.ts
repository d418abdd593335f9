import { LoggerService, LogLevel } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import pino, { DestinationStream, Logger as Pino } from 'pino';
import { redactSecrets, scrubText } from './redact';
import { currentRequestContext } from './request-context';
import { currentTraceContext } from './trace-propagation';

/** Where JSON log lines go: stdout by default; tests pass an in-memory stream. */
export type LogDestination = DestinationStream;

export const DEFAULT_LOG_LEVELS: LogLevel[] = ['log', 'warn', 'error', 'fatal'];

const PINO_LEVEL: Record<LogLevel, pino.Level> = { verbose: 'trace', debug: 'debug', log: 'info', warn: 'warn', error: 'error', fatal: 'fatal' };

/** Exact secret values this process holds (TOKEN_ENCRYPTION_KEY), removed from every line wherever they appear. */
const knownSecrets: string[] = [];

export function registerLogSecret(secret: string): void {
  if (secret && !knownSecrets.includes(secret)) knownSecrets.push(secret);
}

/** The fields every line written inside a request, command or event carries. */
function contextFields(): Record<string, string> {
  const fields: Record<string, string> = {};
  const requestId = currentRequestContext()?.requestId;
  if (requestId) fields.requestId = requestId;
  const span = trace.getSpanContext(currentTraceContext());
  if (span) fields.traceId = span.traceId;
  return fields;
}

/**
 * Nest's LoggerService writing one JSON line per call through pino, with the
 * request id (and trace id) of the work in hand, secrets removed.
 * Nest's convention: the last string argument is the context (the logger's name);
 * error(message, stack?, context?).
 */
export class JsonLogger implements LoggerService {
  private readonly pino: Pino;
  private levels: Set<LogLevel>;
  private readonly alsoLogFrom: Set<string>;

  /**
   * `alsoLogFrom`: contexts whose log-level lines are written even when `log`
   * is not among the levels (npm start keeps the access log and drops Nest's
   * module-loading lines, which are log-level too).
   */
  constructor(options: { levels?: LogLevel[]; alsoLogFrom?: string[]; destination?: LogDestination } = {}) {
    this.levels = new Set(options.levels ?? DEFAULT_LOG_LEVELS);
    this.alsoLogFrom = new Set(options.alsoLogFrom ?? []);
    this.pino = pino(
      {
        level: 'trace',
        base: { pid: process.pid },
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        mixin: contextFields,
      },
      options.destination ?? pino.destination({ dest: 1, sync: true }),
    );
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('log', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('verbose', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }
  setLogLevels(levels: LogLevel[]): void {
    this.levels = new Set(levels);
  }

  private write(level: LogLevel, message: unknown, params: unknown[]): void {
    if (!this.levels.has(level) && !(level === 'log' && this.alsoLogFrom.has(String(params[params.length - 1])))) return;
    const { fields, msg } = toLine(level, message, params);
    this.pino[PINO_LEVEL[level]](redactSecrets(fields, knownSecrets) as object, scrubText(msg, knownSecrets));
  }
}

/** Splits Nest's (message, ...params) into the line's fields and its message text. */
export function toLine(level: LogLevel, message: unknown, params: unknown[]): { fields: Record<string, unknown>; msg: string } {
  let rest = [...params];
  const fields: Record<string, unknown> = {};
  if (rest.length > 0 && typeof rest[rest.length - 1] === 'string') fields.context = rest.pop();
  if ((level === 'error' || level === 'fatal') && typeof rest[0] === 'string') fields.stack = rest.shift();
  rest = rest.filter((p) => p !== undefined);
  if (rest.length) fields.params = rest;
  if (message instanceof Error) return { fields: { ...fields, err: message }, msg: message.message };
  if (message !== null && typeof message === 'object') {
    const { msg, ...data } = message as Record<string, unknown>;
    return { fields: { ...fields, ...data }, msg: typeof msg === 'string' ? msg : '' };
  }
  return { fields, msg: String(message) };
}
