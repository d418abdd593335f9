import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError, ErrorCode } from '@app/contracts';

function flatten(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    return [...Object.values(error.constraints ?? {}).map((message) => message.replace(error.property, path)), ...flatten(error.children ?? [], path)];
  });
}

/** class-validator over a DTO, answering with our error body and one stable code. */
function pipe(code: ErrorCode): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    exceptionFactory: (errors) => {
      const problems = flatten(errors);
      return new DomainError(code, problems.join('; '), { details: problems });
    },
  });
}

export const bodyValidation = pipe('invalid_body');
export const queryValidation = pipe('invalid_query');
