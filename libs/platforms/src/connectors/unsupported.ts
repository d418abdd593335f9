import type { PlatformError } from '../connector';
import { PlatformCallFailed } from '../http/platform-http';

/** For platforms whose public API cannot post comments: a per-account failure, never a request. */
export function commentsNotSupported(platform: string): PlatformError {
  return { code: 'comments_not_supported', message: `${platform}'s public API does not let an app post comments`, retryable: false };
}

/**
 * For a comment action the platform's API does not offer (COMMENT_CAPABILITIES in @app/contracts):
 * the backstop behind the service's own check, thrown before any request.
 */
export function commentActionNotSupported(platform: string, action: 'hiding comments' | 'deleting comments'): PlatformCallFailed {
  return new PlatformCallFailed({ code: 'comment_action_not_supported', message: `${platform}'s public API does not offer ${action}`, retryable: false });
}
