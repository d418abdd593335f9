import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `platformOptions`: an object whose every value is an object (its options and their values are the posts service's rule). */
export function IsPlatformOptions(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPlatformOptions',
      validator: {
        validate: (value: unknown) => isObject(value) && Object.values(value).every(isObject),
        defaultMessage: buildMessage((eachPrefix) => `${eachPrefix}$property must map each platform id to an object of options`, options),
      },
    },
    options,
  );
}
