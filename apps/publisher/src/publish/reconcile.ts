import { ConnectorAccount, PlatformCallFailed, PlatformConnector, PublishedLookup } from '@app/platforms';
import { publishErrors } from './outcomes';
import { AccountOutcome } from './posts-publication.client';

/**
 * The outcome of a publish whose answer was lost (an `unknown` outcome, or an
 * attempt started by a delivery that never finished): looked up on the
 * platform among the account's items made since the attempt started, never
 * sent again. Found: published (reconciled). Not found: failed `outcome_unknown`.
 * A lookup that itself failed transiently is left to the next delivery (thrown),
 * unless there is none; one that cannot succeed (refused, or ambiguous: several
 * items carry what was sent, `lookup_ambiguous`) ends it as `outcome_unknown`.
 */
export async function reconcile(
  connector: PlatformConnector,
  account: ConnectorAccount | null,
  request: PublishedLookup,
  isLastDelivery: boolean,
): Promise<AccountOutcome> {
  if (!account) return { status: 'failed', error: publishErrors.outcomeUnknown('the account has no credentials left to look it up with') };
  try {
    const found = await connector.findPublished(account, request);
    if (found) return { status: 'published', platformPostId: found.platformPostId, url: found.url, reconciled: true };
    return { status: 'failed', error: publishErrors.outcomeUnknown('it was not found on the account since the attempt started') };
  } catch (error) {
    if (!(error instanceof PlatformCallFailed)) throw error;
    if (error.error.retryable && !isLastDelivery) throw error;
    return { status: 'failed', error: publishErrors.outcomeUnknown(`looking it up failed (${error.error.code})`) };
  }
}
