import { logLevelsFrom } from './log-levels';

describe('logLevelsFrom (LOG_LEVEL)', () => {
  it('answers the level named and every less detailed one', () => {
    expect(logLevelsFrom('verbose')).toEqual(['verbose', 'debug', 'log', 'warn', 'error', 'fatal']);
    expect(logLevelsFrom('debug')).toEqual(['debug', 'log', 'warn', 'error', 'fatal']);
    expect(logLevelsFrom('log')).toEqual(['log', 'warn', 'error', 'fatal']);
    expect(logLevelsFrom('error')).toEqual(['error', 'fatal']);
  });

  it('answers undefined when unset or empty, so each program keeps its own default', () => {
    expect(logLevelsFrom(undefined)).toBeUndefined();
    expect(logLevelsFrom('')).toBeUndefined();
  });

  it('refuses an unknown level, naming the known ones', () => {
    expect(() => logLevelsFrom('info')).toThrow('LOG_LEVEL=info is not a log level: one of verbose, debug, log, warn, error, fatal');
  });
});
