import { isDatabaseUnavailable } from './unavailable';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('a database that cannot be reached', () => {
  it.each([
    ['connection refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['connection reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['a write to a closed socket', withCode('write EPIPE', 'EPIPE')],
    ['a connect that timed out', withCode('connect ETIMEDOUT 10.0.0.1:5432', 'ETIMEDOUT')],
    ['a database refusing connections (55000, ALLOW_CONNECTIONS false)', Object.assign(withCode('database "app" is not currently accepting connections', '55000'), { routine: 'CheckMyDatabase' })],
    ['a database refusing connections, message in English without a routine', withCode('database "app" is not currently accepting connections', '55000')],
    ['a database refusing connections, message translated', Object.assign(withCode('la base de données « app » n\'accepte plus les connexions', '55000'), { routine: 'CheckMyDatabase' })],
    ['a server that crashed (57P02 crash_shutdown)', withCode('terminating connection because of crash of another server process', '57P02')],
    ['a connection exception (08001 unable to connect)', withCode('could not connect', '08001')],
    ['a connection exception (08003 connection does not exist)', withCode('connection does not exist', '08003')],
    ['connection refused on every address', new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED'), withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')])],
    ['a server shutting down (57P01 admin_shutdown)', withCode('terminating connection due to administrator command', '57P01')],
    ['a server starting up (57P03 cannot_connect_now)', withCode('the database system is starting up', '57P03')],
    ['a connection exception (class 08)', withCode('connection failure', '08006')],
    ['too many connections', withCode('sorry, too many clients already', '53300')],
    ['a connection cut mid-query (node-postgres)', new Error('Connection terminated unexpectedly')],
    ['no pooled connection in time (pg-pool)', new Error('timeout exceeded when trying to connect')],
    ['a client broken by an earlier error', new Error('Client has encountered a connection error and is not queryable')],
  ])('is recognised: %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a syntax error', withCode('syntax error at or near "SELEC"', '42601')],
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['invalid text (NUL)', withCode('invalid byte sequence for encoding "UTF8": 0x00', '22021')],
    ['a query in the wrong state (55000 from a query, a bug)', Object.assign(withCode('currval of sequence "s" is not yet defined in this session', '55000'), { routine: 'currval_oid' })],
    ['a lock not available (55P03)', withCode('could not obtain lock on row', '55P03')],
    ['an unrelated error', new TypeError('x is not a function')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', null],
  ])('is not confused with a failing query: %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
