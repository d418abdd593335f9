import type { Platform } from '@app/contracts';
import { DOCUMENTED_SCOPES } from '@app/platforms/scopes';
import { SIGN_IN } from './platforms';

/**
 * What a test account consents to when a test names no scopes: every scope the platform's
 * documentation lists for the endpoints the sandbox plays (libs/platforms/src/scopes, the
 * documentation's table, not what a connector asks for), and the sign-in's extras (X's
 * offline.access). A sign-in through the consent step holds what it asked for instead.
 */
export function documentedConsent(platform: Platform): string[] {
  const documented = DOCUMENTED_SCOPES[platform].flatMap((row) => row.anyOf.flat());
  return [...new Set([...documented, ...(SIGN_IN[platform].consentExtras ?? [])])];
}
