import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { DomainError, ERROR_CODES, ErrorBody, ErrorCode } from '@app/contracts';
import { isDatabaseUnavailable } from '@app/database';

/** HTTP statuses raised by the framework itself (routing, body parsing, limits), as our codes. */
const FRAMEWORK_CODES: Partial<Record<number, ErrorCode>> = {
  [HttpStatus.BAD_REQUEST]: 'invalid_body',
  [HttpStatus.NOT_FOUND]: 'not_found',
  [HttpStatus.REQUEST_TIMEOUT]: 'request_timeout',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'payload_too_large',
  [HttpStatus.URI_TOO_LONG]: 'uri_too_long',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'unsupported_media_type',
  431: 'headers_too_large',
  [HttpStatus.SERVICE_UNAVAILABLE]: 'service_unavailable',
};

/**
 * How long a client should wait before retrying a 503: a database restart or a
 * NATS reconnection takes seconds; the client loses nothing by retrying (with
 * the same Idempotency-Key for a create).
 */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The NATS connection is down or going down (nats.js ErrorCode): the message bus is unavailable, not the request wrong. */
const NATS_UNAVAILABLE_CODES = new Set(['CONNECTION_CLOSED', 'CONNECTION_DRAINING', 'CONNECTION_REFUSED', 'CONNECTION_TIMEOUT', 'DISCONNECT']);

function isBackingServiceUnavailable(exception: unknown): boolean {
  if (isDatabaseUnavailable(exception)) return true;
  const { name, code } = (exception ?? {}) as { name?: unknown; code?: unknown };
  return name === 'NatsError' && NATS_UNAVAILABLE_CODES.has(String(code));
}

const unavailable = (): { status: number; body: ErrorBody } => ({
  status: HttpStatus.SERVICE_UNAVAILABLE,
  body: { error: { code: 'service_unavailable', message: 'a backing service cannot be reached; retry later' } },
});

/** One error body shape everywhere: {"error": {"code", "message", ...}}. */
export function toErrorResponse(exception: unknown): { status: number; body: ErrorBody } {
  if (exception instanceof DomainError) return { status: ERROR_CODES[exception.code].status, body: exception.toBody() };
  if (isBackingServiceUnavailable(exception)) return unavailable();
  const status = exception instanceof HttpException ? exception.getStatus() : (exception as { statusCode?: number })?.statusCode;
  if (typeof status === 'number' && status >= 400 && (status < 500 || status === HttpStatus.SERVICE_UNAVAILABLE)) {
    const response = exception instanceof HttpException ? exception.getResponse() : null;
    if (response && typeof response === 'object' && 'error' in response && typeof response.error === 'object') {
      return { status, body: response as ErrorBody };
    }
    // A framework status we have no code for is answered as what it always is here: a request we cannot read.
    const code = FRAMEWORK_CODES[status] ?? 'invalid_body';
    const message = exception instanceof Error ? exception.message : ERROR_CODES[code].description;
    return { status: ERROR_CODES[code].status, body: { error: { code, message } } };
  }
  return { status: 500, body: { error: { code: 'internal_error', message: 'an unexpected error occurred' } } };
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(ApiExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const { status, body } = toErrorResponse(exception);
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (status === HttpStatus.SERVICE_UNAVAILABLE) {
      // RFC 9110 §10.2.3: a 503 may say when to come back; the README promises it.
      void reply.header('retry-after', String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS));
      if (!(exception instanceof DomainError)) this.logger.warn(`answered 503: ${exception instanceof Error ? exception.message : String(exception)}`);
    } else if (status >= 500) {
      this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    }
    void reply.status(status).send(body);
  }
}
