import { capabilitiesOf, CommentCapabilities, DomainError } from '@app/contracts';
import { ExistingComment } from './comment.state';

const ACTIONS: Record<keyof CommentCapabilities, string> = { reply: 'reply to comments', hide: 'hide comments', deleteOwnReply: 'delete its replies' };

/**
 * Refuses what the comment's platform does not let the workspace do with this comment through
 * its API (capabilitiesOf: the rule the list's canReply / canHide / canDelete come from too):
 * checked before the platform is called, so nothing is sent.
 */
export function checkCapability(comment: ExistingComment, capability: keyof CommentCapabilities): void {
  if (capabilitiesOf(comment.data)[capability]) return;
  const { platform } = comment.data;
  const onOtherComments = capabilitiesOf({ platform })[capability];
  const what = onOtherComments ? `${ACTIONS[capability]} that reply to another comment` : ACTIONS[capability];
  throw new DomainError('comment_action_not_supported', `${platform}'s API does not let the workspace ${what}`, { details: { platform, action: capability } });
}
