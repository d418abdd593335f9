import { CommandActor } from '@app/contracts';
import { KeyPrincipal } from '@app/workspaces';

/** Who sends a posts command: the key, and whether it may approve (the posts service decides what is held for review). */
export function actorOf(principal: KeyPrincipal): CommandActor {
  return { keyId: principal.keyId, canApprove: principal.scopes.includes('approve') };
}
