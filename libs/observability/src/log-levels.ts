import { LogLevel } from '@nestjs/common';

/** Nest's levels, most detailed first. */
const LEVELS_BY_DETAIL: LogLevel[] = ['verbose', 'debug', 'log', 'warn', 'error', 'fatal'];

/**
 * The levels `LOG_LEVEL=<level>` writes: that level and every less detailed
 * one (`log`: log, warn, error, fatal). Undefined when unset, so each program
 * keeps its own default; an unknown level is refused, naming the known ones.
 */
export function logLevelsFrom(level: string | undefined): LogLevel[] | undefined {
  if (level === undefined || level === '') return undefined;
  const index = LEVELS_BY_DETAIL.indexOf(level as LogLevel);
  if (index < 0) throw new Error(`LOG_LEVEL=${level} is not a log level: one of ${LEVELS_BY_DETAIL.join(', ')}`);
  return LEVELS_BY_DETAIL.slice(index);
}
