import { DomainError } from '@app/contracts';

/** An Idempotency-Key header, when given, is 1 to 255 characters (a single create and a bulk import alike). */
export function checkIdempotencyKey(idempotencyKey: string | undefined): void {
  if (idempotencyKey !== undefined && (idempotencyKey.trim() === '' || idempotencyKey.length > 255)) {
    throw new DomainError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 characters');
  }
}
