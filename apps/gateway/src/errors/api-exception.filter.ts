import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { DomainError, ERROR_CODES, ErrorBody, ErrorCode } from '@app/contracts';

/** HTTP statuses raised by the framework itself (routing, body parsing), as our codes. */
const FRAMEWORK_CODES: Partial<Record<number, ErrorCode>> = {
  [HttpStatus.BAD_REQUEST]: 'invalid_body',
  [HttpStatus.NOT_FOUND]: 'not_found',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'invalid_body',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'unsupported_media_type',
  [HttpStatus.SERVICE_UNAVAILABLE]: 'service_unavailable',
};

/** One error body shape everywhere: {"error": {"code", "message", ...}}. */
export function toErrorResponse(exception: unknown): { status: number; body: ErrorBody } {
  if (exception instanceof DomainError) return { status: ERROR_CODES[exception.code].status, body: exception.toBody() };
  const status = exception instanceof HttpException ? exception.getStatus() : (exception as { statusCode?: number })?.statusCode;
  if (typeof status === 'number' && status < 500 || status === HttpStatus.SERVICE_UNAVAILABLE) {
    const response = exception instanceof HttpException ? exception.getResponse() : null;
    if (response && typeof response === 'object' && 'error' in response && typeof response.error === 'object') {
      return { status: status!, body: response as ErrorBody };
    }
    const code = FRAMEWORK_CODES[status!] ?? 'invalid_body';
    const message = exception instanceof Error ? exception.message : ERROR_CODES[code].description;
    return { status: status!, body: { error: { code, message } } };
  }
  return { status: 500, body: { error: { code: 'internal_error', message: 'an unexpected error occurred' } } };
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger(ApiExceptionFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const { status, body } = toErrorResponse(exception);
    if (status >= 500 && status !== HttpStatus.SERVICE_UNAVAILABLE) {
      this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    }
    void host.switchToHttp().getResponse<FastifyReply>().status(status).send(body);
  }
}
