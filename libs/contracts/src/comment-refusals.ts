import { DomainError } from './error-codes';

/**
 * The refusals both the gateway (reading a thread) and the comments service
 * (acting on a comment) answer, so a client sees one message per code.
 */

/** No comment with that platformCommentId is stored for the workspace on that platform. */
export const unknownComment = () => new DomainError('unknown_comment', 'no comment with that commentId is stored for this workspace on that platform; use a platformCommentId from GET /api/v1/comments');

/** A platform identifier this service does not know. */
export const unknownPlatform = (platform: string) => new DomainError('unknown_platform', `${platform} is not a platform this service knows`, { details: { platform } });
