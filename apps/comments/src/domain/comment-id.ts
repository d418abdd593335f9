import { v5 as uuidv5 } from 'uuid';

/** Namespace of comment ids derived from (workspace, platform, platform comment id). */
const COMMENT_ID_NAMESPACE = 'b3c1f0a2-6d4e-4c8b-9a57-2e8f1d3c7a90';

/**
 * The comment's id in this service: the same comment seen twice (a poll and a
 * webhook, two polls, two replicas) has one id, so the store's no_stream check
 * lets exactly one append through. A workspace's own id namespace keeps the
 * same platform comment apart between workspaces.
 */
export function commentIdOf(workspaceId: string, platform: string, platformCommentId: string): string {
  return uuidv5(`${workspaceId}\n${platform}\n${platformCommentId}`, COMMENT_ID_NAMESPACE);
}
