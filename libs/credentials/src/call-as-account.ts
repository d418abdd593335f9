import { DomainError } from '@app/contracts';
import { ConnectorAccount, PlatformCallFailed, PlatformOutcomeUnknown } from '@app/platforms';
import { AccountCredentials, isUnavailable } from './account-credentials';

/**
 * A platform call made as the account for a client waiting on the answer (a reply, a
 * moderation, the boards listing): its credential renewed once if refused
 * (AccountCredentials.run), and every way it can fail turned into the error the client
 * sees — an account that cannot act, a refusal, a sent call with no answer.
 */
export async function callAsAccount<T>(credentials: AccountCredentials, accountId: string, call: (acting: ConnectorAccount) => Promise<T>): Promise<T> {
  const outcome = await credentials.run(accountId, call).catch(asPlatformRefusal);
  if (isUnavailable(outcome)) {
    const code = outcome.unavailable.code === 'reauth_required' ? 'account_needs_reauth' : 'account_disconnected';
    throw new DomainError(code, outcome.unavailable.message, { details: { accountId } });
  }
  return outcome;
}

/** A platform call that threw: refused (nothing happened), or sent with no answer (it may have happened). */
function asPlatformRefusal(error: unknown): never {
  if (error instanceof PlatformCallFailed) throw new DomainError('platform_rejected', `the platform refused: ${error.error.message}`, { details: error.error });
  if (error instanceof PlatformOutcomeUnknown) throw new DomainError('platform_outcome_unknown', `the platform did not answer: ${error.message}; check before asking again`);
  throw error;
}
