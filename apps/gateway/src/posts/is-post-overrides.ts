import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringArray = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The type of each field an override may give (the rules on their values are the posts service's). */
const OVERRIDE_FIELDS: Record<string, (value: unknown) => boolean> = {
  content: (value) => typeof value === 'string',
  mediaUrls: isStringArray,
  altText: (value) => Array.isArray(value) && value.every((item) => item === null || typeof item === 'string'),
  firstComments: isStringArray,
};

/** `overrides`: an object whose every value is an object of override fields with their types, and nothing else. */
export function IsPostOverrides(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPostOverrides',
      validator: {
        validate: (value: unknown) =>
          isObject(value) &&
          Object.values(value).every((override) => isObject(override) && Object.entries(override).every(([field, given]) => OVERRIDE_FIELDS[field]?.(given) === true)),
        defaultMessage: buildMessage(
          (eachPrefix) => `${eachPrefix}$property must map each platform or account to an object with only content (string), mediaUrls (strings), altText (strings or null) and firstComments (strings)`,
          options,
        ),
      },
    },
    options,
  );
}
