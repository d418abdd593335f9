import { applyDecorators } from '@nestjs/common';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { ValidateBy, ValidateIf, ValidateNested } from 'class-validator';

type DtoClass<T> = new () => T;

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An array of objects each checked by a DTO class, to whatever depth it declares
 * (unknown fields refused in each, by index: `thread[1].contnet`). `message` is
 * the refusal of anything but an array of objects.
 */
export function NestedArrayOf<T extends object>(type: () => DtoClass<T>, message: string): PropertyDecorator {
  return applyDecorators(
    // class-transformer made every object entry an instance of the class; anything else (an array, a string) is refused here.
    ValidateBy({ name: 'isArrayOfObjects', validator: { validate: (value: unknown) => Array.isArray(value) && value.every((entry) => entry instanceof type()), defaultMessage: () => message } }),
    ValidateNested({ each: true }),
    Type(type),
  );
}

/**
 * An object whose every value is an object checked by a DTO class, keyed by names
 * the DTO does not know (platforms and accounts for overrides). class-validator
 * walks a Map's values by key, so the record is read as one: unknown fields are
 * refused by their path (`overrides.x.contnet`). The handler gets the Map back as
 * a record with recordOf.
 */
export function NestedRecordOf<T extends object>(type: () => DtoClass<T>, message: string): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (isPlainObject(value) ? new Map(Object.entries(value).map(([key, entry]) => [key, isPlainObject(entry) ? plainToInstance(type(), entry) : entry])) : value), {
      toClassOnly: true,
    }),
    ValidateBy({ name: 'isRecordOfObjects', validator: { validate: (value: unknown) => value instanceof Map && [...value.values()].every((entry) => entry instanceof type()), defaultMessage: () => message } }),
    ValidateNested(),
  );
}

/** The record a NestedRecordOf property was given as, its entries' fields as sent; null and undefined as they are. */
export function recordOf<T>(value: Map<string, T> | null | undefined): Record<string, T> | null | undefined {
  return value instanceof Map ? Object.fromEntries([...value].map(([key, entry]) => [key, { ...entry }])) : value;
}

/**
 * A field that may be left out but, when given, must pass its rules: null is
 * refused like any other wrong type (IsOptional would let it through), for the
 * nested fields whose null means nothing.
 */
export const IsAbsentOr = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
