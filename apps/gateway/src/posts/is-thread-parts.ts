import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The type of each field a thread part may give (the rules on their values are the posts service's). */
const PART_FIELDS: Record<string, (value: unknown) => boolean> = {
  content: (value) => typeof value === 'string',
  mediaUrls: (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
  altText: (value) => Array.isArray(value) && value.every((item) => item === null || typeof item === 'string'),
};

/** `thread`: an array of objects with content (a string) and optionally mediaUrls and altText, and nothing else. */
export function IsThreadParts(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isThreadParts',
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.every((part) => isObject(part) && typeof part.content === 'string' && Object.entries(part).every(([field, given]) => PART_FIELDS[field]?.(given) === true)),
        defaultMessage: buildMessage((eachPrefix) => `${eachPrefix}$property must be an array of objects with content (string) and optionally mediaUrls (strings) and altText (strings or null)`, options),
      },
    },
    options,
  );
}
