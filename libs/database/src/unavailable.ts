/**
 * Errors that mean "the database cannot be reached right now" rather than "this
 * query is wrong": the server is down or restarting, the connection was cut,
 * or no connection could be had in time. A request that meets one should be
 * answered 503 with Retry-After (the client may simply retry), never 500.
 */

/** Socket-level failures node reports while connecting or talking to the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of an unavailable server (Appendix A, PostgreSQL Error Codes):
 * class 08 connection exceptions, 57P01 admin_shutdown, 57P02 crash_shutdown,
 * 57P03 cannot_connect_now (starting up / in recovery), 53300 too_many_connections.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

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
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof message === 'string' && DRIVER_MESSAGES.some((driverMessage) => message.startsWith(driverMessage))) return true;
  // A connect to a host with several addresses fails with every attempt's error in one AggregateError.
  return Array.isArray(errors) && errors.some(isDatabaseUnavailable);
}
