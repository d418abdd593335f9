import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';

/** A string or null: altText entries, where null (like "") means "this media item has none". */
export function IsStringOrNull(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStringOrNull',
      validator: {
        validate: (value: unknown) => value === null || typeof value === 'string',
        defaultMessage: buildMessage((eachPrefix) => `${eachPrefix}$property must be a string or null`, options),
      },
    },
    options,
  );
}
