import { ArgumentMetadata, ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { DomainError, ErrorCode } from '@app/contracts';
import { compiledBodyOf } from './compiled-body';
import { errorPath, UnknownNameCode, unknownNames, unknownNamesRefusal } from './unknown-names';

function flatten(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = errorPath(parent, error);
    return [...Object.values(error.constraints ?? {}).map((message) => message.replace(error.property, path)), ...flatten(error.children ?? [], path)];
  });
}

/** What a pipe answers: the code for a value outside its rule, the code for a name not taken. */
interface Refusals {
  invalid: ErrorCode;
  unknown: UnknownNameCode;
}

/**
 * A body its DTO's compiled schema accepts (compiled-body.ts: the OpenAPI document's request
 * schema, flat fields only, no other name) is the DTO at once, without class-transformer and
 * class-validator, about a tenth of the gateway's CPU per draft; any other body, and every
 * refusal, goes their way, so what the API answers to a bad body is unchanged.
 */
class CompiledFirstValidationPipe extends ValidationPipe {
  constructor(options: ValidationPipeOptions) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const compiled = metadata.type === 'body' && metadata.metatype ? compiledBodyOf(metadata.metatype as new () => object) : null;
    if (compiled?.accepts(value)) return compiled.instance(value as object);
    return super.transform(value, metadata);
  }
}

/**
 * class-validator over a DTO, answering with our error body and stable codes.
 * `strict`: a name the DTO does not declare, at any depth its nested DTOs reach,
 * is refused (forbidNonWhitelisted) rather than dropped, and that refusal comes
 * first — a misspelt field usually explains the other errors (a required field
 * "missing"). Otherwise undeclared names are dropped (whitelist).
 */
function pipe(refusals: Refusals, strict: boolean): ValidationPipe {
  return new CompiledFirstValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: strict,
    // Each error keeps the object it was found in: its class says which names are taken there.
    validationError: { target: true },
    exceptionFactory: (errors) => {
      const unknown = unknownNames(errors);
      if (unknown.length) return unknownNamesRefusal(refusals.unknown, unknown);
      const problems = flatten(errors);
      return new DomainError(refusals.invalid, problems.join('; '), { details: problems });
    },
  });
}

/** A JSON body of the DTO's shape; a field it does not take is unknown_field. */
export const bodyValidation = pipe({ invalid: 'invalid_body', unknown: 'unknown_field' }, true);
/** A query string of the DTO's parameters; a parameter it does not take is unknown_query_parameter. */
export const queryValidation = pipe({ invalid: 'invalid_query', unknown: 'unknown_query_parameter' }, true);
/**
 * The query string of a platform's redirect (the sign-in callback): the platform,
 * not our client, writes it, and may add parameters of its own (Google's scope and
 * authuser, Facebook's error_reason); those are dropped, as RFC 6749 §4.1.2 expects.
 */
export const platformQueryValidation = pipe({ invalid: 'invalid_query', unknown: 'unknown_query_parameter' }, false);
