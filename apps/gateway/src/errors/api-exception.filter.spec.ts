import { BadRequestException, HttpException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { DomainError } from '@app/contracts';
import { toErrorResponse } from './api-exception.filter';

/** Every exception becomes the one error body, at the status its code is documented with. */
describe('toErrorResponse', () => {
  it('keeps a refusal of the domain as it is, with its documented status', () => {
    expect(toErrorResponse(new DomainError('insufficient_scope', 'no', { details: { missing: ['write', 'publish'] } }))).toEqual({
      status: 403,
      body: { error: { code: 'insufficient_scope', message: 'no', details: { missing: ['write', 'publish'] } } },
    });
  });

  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a connection terminated', new Error('Connection terminated unexpectedly')],
    ['the database shutting down', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a database not accepting connections (55000)', Object.assign(new Error('database "app" is not currently accepting connections'), { code: '55000', routine: 'CheckMyDatabase' })],
    ['no pooled connection in time', new Error('timeout exceeded when trying to connect')],
    ['NATS disconnected', Object.assign(new Error('connection closed'), { name: 'NatsError', code: 'CONNECTION_CLOSED' })],
  ])('answers a lost backing service (%s) 503 service_unavailable, not 500', (_name, error) => {
    expect(toErrorResponse(error)).toEqual({ status: 503, body: { error: { code: 'service_unavailable', message: expect.any(String) } } });
  });

  it.each([
    ['a body over the limit (Fastify)', Object.assign(new Error('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }), 413, 'payload_too_large'],
    ['a body over the limit (Nest)', new PayloadTooLargeException(), 413, 'payload_too_large'],
    ['a body that is not JSON', Object.assign(new SyntaxError('Unexpected end of JSON input'), { statusCode: 400 }), 400, 'invalid_body'],
    ['an unknown route', new NotFoundException('Cannot GET /nothing'), 404, 'not_found'],
    ['a content type without a parser', Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), 415, 'unsupported_media_type'],
    ['a 4xx we have no code for', new HttpException('Method Not Allowed', 405), 400, 'invalid_body'],
    ['a bad request', new BadRequestException('x'), 400, 'invalid_body'],
  ])('answers %s in the documented shape', (_name, exception, status, code) => {
    expect(toErrorResponse(exception)).toEqual({ status, body: { error: { code, message: expect.any(String) } } });
  });

  it('hides anything else behind internal_error', () => {
    expect(toErrorResponse(new TypeError('x is not a function'))).toEqual({ status: 500, body: { error: { code: 'internal_error', message: 'an unexpected error occurred' } } });
    expect(toErrorResponse(Object.assign(new Error('boom'), { statusCode: 502 }))).toMatchObject({ status: 500 });
  });
});
