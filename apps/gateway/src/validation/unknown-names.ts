import { ValidationError } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { DomainError, ErrorCode } from '@app/contracts';
import { closestName } from './closest-name';

/** A field (or query parameter) the operation does not take: where it is, what it was likely meant to be, and what is taken there. */
export interface UnknownName {
  /** Its path, as the storable-text check writes one: `publish_now`, `thread[0].contnet`, `overrides.x.contnet`. */
  field: string;
  suggestion: string | null;
  allowed: string[];
}

/** The path of an error below `parent`: an array element by its index in brackets, an object's (or a Map's) entry by its key. */
export function errorPath(parent: string, error: ValidationError): string {
  if (Array.isArray(error.target)) return `${parent}[${error.property}]`;
  return parent ? `${parent}.${error.property}` : error.property;
}

/** The properties a DTO class takes: those with a class-validator rule (its parents' included), which is what whitelisting keeps. */
function takenBy(target: object | undefined): string[] {
  if (!target) return [];
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(target.constructor, '', true, false);
  return [...new Set(metadatas.map((metadata) => metadata.propertyName))];
}

/**
 * The names class-validator's whitelisting (forbidNonWhitelisted) found at any
 * depth of the errors, in the order found. Each whitelist error carries the
 * object it was found in (validationError.target), whose class says what is taken there.
 */
export function unknownNames(errors: ValidationError[], parent = ''): UnknownName[] {
  return errors.flatMap((error) => {
    const path = errorPath(parent, error);
    const own: UnknownName[] = [];
    if (error.constraints?.[ValidationTypes.WHITELIST] !== undefined) {
      const allowed = takenBy(error.target);
      own.push({ field: path, suggestion: closestName(error.property, allowed), allowed });
    }
    return [...own, ...unknownNames(error.children ?? [], path)];
  });
}

const NAMED: Record<UnknownNameCode, string> = { unknown_field: 'field', unknown_query_parameter: 'query parameter' };

export type UnknownNameCode = Extract<ErrorCode, 'unknown_field' | 'unknown_query_parameter'>;

/**
 * The refusal of names an operation does not take, all of them in the message
 * ("unknown field publish_now (did you mean publishNow?)"; with no hint, what is
 * taken instead), the first one in details: its path, the hint and what is taken there.
 */
export function unknownNamesRefusal(code: UnknownNameCode, names: UnknownName[]): DomainError {
  const [first] = names;
  const listed = names.map(({ field, suggestion }) => (suggestion ? `${field} (did you mean ${suggestion}?)` : field)).join(', ');
  const instead = names.length === 1 && first.suggestion === null ? `; ${first.allowed.length ? `the ${NAMED[code]}s taken here are ${first.allowed.join(', ')}` : `this operation takes no ${NAMED[code]}`}` : '';
  return new DomainError(code, `unknown ${NAMED[code]}${names.length > 1 ? 's' : ''} ${listed}${instead}`, {
    details: { field: first.field, suggestion: first.suggestion, allowed: first.allowed },
  });
}
