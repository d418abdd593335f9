import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ERROR_CODES, ErrorCode } from '@app/contracts';
import { ErrorBodySchema } from './schemas/error-body.schema';

/**
 * What any operation behind the API key can answer, whatever it does: each takes
 * only the query parameters it documents (none for most); any other is
 * unknown_query_parameter (RequestShapeGuard, the query DTOs' pipe).
 */
export const AUTHENTICATED_ERRORS: ErrorCode[] = ['unauthenticated', 'insufficient_scope', 'rate_limited', 'unknown_query_parameter', 'internal_error', 'service_unavailable'];

/** The codes an operation answers, grouped by their HTTP status (from the catalogue, ERROR_CODES). */
export function codesByStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    groups.set(status, [...(groups.get(status) ?? []), code]);
  }
  return groups;
}

function describe(codes: ErrorCode[]): string {
  return codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].description}`).join('\n\n');
}

/**
 * Documents the error responses of an operation: one response per status, with
 * the error body schema, every code as an example and its meaning, all read
 * from the catalogue so the document cannot disagree with the filter.
 */
export function ApiErrors(...codes: ErrorCode[]): MethodDecorator & ClassDecorator {
  const responses = [...codesByStatus(codes)].map(([status, group]) =>
    ApiResponse({
      status,
      description: describe(group),
      type: ErrorBodySchema,
      examples: Object.fromEntries(group.map((code) => [code, { summary: code, value: { error: { code, message: ERROR_CODES[code].description } } }])),
    }),
  );
  return applyDecorators(...responses);
}
