import type { PlatformError } from '../connector';

/** For platforms whose public API cannot post comments: a per-account failure, never a request. */
export function commentsNotSupported(platform: string): PlatformError {
  return { code: 'comments_not_supported', message: `${platform}'s public API does not let an app post comments`, retryable: false };
}
