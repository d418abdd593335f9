import { DomainError } from '@app/contracts';
import type { PendingConnection } from '@app/accounts';
import { verifierMatches } from './connect-verifier';

/** Who asks to complete a connection: the workspace it acts for (null: the verifier is the whole proof, as the connect page's cookie will be), the verifier, and when. */
export interface CompletionAttempt {
  workspaceId: string | null;
  verifier: string;
  now: Date;
}

/**
 * Why a completion is refused, or null when it may proceed. In this order: a connection the
 * caller's workspace does not hold is not_found (another workspace learns nothing of it); a
 * wrong verifier is refused before anything about the connection's state is told; then
 * single use, then expiry.
 */
export function completionRefusal(connection: PendingConnection | null, attempt: CompletionAttempt): DomainError | null {
  if (!connection || (attempt.workspaceId !== null && connection.workspaceId !== attempt.workspaceId)) {
    return new DomainError('not_found', 'no sign-in with this connection id in this workspace');
  }
  if (!verifierMatches(attempt.verifier, connection.verifierHash)) {
    return new DomainError('connection_verifier_invalid', 'verifier is not the one POST /api/v1/accounts/connect answered for this sign-in');
  }
  if (connection.completedAt) return new DomainError('connection_already_completed', 'this connection was already completed; its accounts are in GET /api/v1/accounts');
  if (connection.expiresAt.getTime() <= attempt.now.getTime()) {
    return new DomainError('connection_expired', 'this sign-in was not completed in time after the callback; start it again');
  }
  return null;
}
