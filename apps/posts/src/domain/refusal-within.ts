import { DomainError } from '@app/contracts';

/**
 * A create rule's refusal inside one piece of a request (an override, a thread part): the same
 * code, the piece named before the message, and the piece's key merged into the details, so a
 * client can point at what to fix.
 */
export function refusalWithin<T>(label: string, where: Record<string, unknown>, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const details = typeof error.extra.details === 'object' && error.extra.details !== null ? error.extra.details : {};
    throw new DomainError(error.code, `${label}: ${error.message}`, { ...error.extra, details: { ...details, ...where } });
  }
}
