/**
 * Errors that mean "the database cannot be reached right now" rather than "this
 * query is wrong": the server is down or restarting, the connection was cut,
 * or no connection could be had in time. A request that meets one should be
 * answered 503 with Retry-After (the client may simply retry), never 500.
 */

/** Socket-level failures node reports while connecting or talking to the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of an unavailable server (Appendix A, PostgreSQL Error Codes,
 * https://www.postgresql.org/docs/current/errcodes-appendix.html): class 08 connection
 * exceptions, 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now
 * (starting up / in recovery), 53300 too_many_connections.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * 55000 object_not_in_prerequisite_state is what a connection to a database with
 * ALLOW_CONNECTIONS false gets (FATAL, raised by CheckMyDatabase while the session
 * starts, "database … is not currently accepting connections"): the database cannot
 * be used now, whatever the request. The same code is raised by queries run in the
 * wrong state (currval before nextval, ...), which are our bugs and stay 500, so it
 * counts only when it comes from the connection's start: by the routine PostgreSQL
 * names (not translated), or by its English message when the server sends no routine.
 */
const NOT_ACCEPTING_CONNECTIONS = '55000';
const CONNECTION_START_ROUTINES = new Set(['CheckMyDatabase', 'InitPostgres']);

function refusesConnections(code: string, routine: unknown, message: unknown): boolean {
  if (code !== NOT_ACCEPTING_CONNECTIONS) return false;
  if (typeof routine === 'string' && CONNECTION_START_ROUTINES.has(routine)) return true;
  return typeof message === 'string' && message.includes('is not currently accepting connections');
}

/** What node-postgres and pg-pool throw when the connection is gone or never came (their own messages, no code). */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Query read timeout',
];

/**
 * Read by shape, not by class: the errors node's net module raises come from
 * another realm under a test runner's VM context, where `instanceof Error` fails.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors, routine } = error as { code?: unknown; message?: unknown; errors?: unknown; routine?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof code === 'string' && refusesConnections(code, routine, message)) return true;
  if (typeof message === 'string' && DRIVER_MESSAGES.some((driverMessage) => message.startsWith(driverMessage))) return true;
  // A connect to a host with several addresses fails with every attempt's error in one AggregateError.
  return Array.isArray(errors) && errors.some(isDatabaseUnavailable);
}
