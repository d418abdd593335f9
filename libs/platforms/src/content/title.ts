/** Media kinds told apart by the url's file extension (the only hint a url gives before fetching it). */
const VIDEO_EXTENSIONS = /\.(mp4|mov|m4v|webm)$/i;

export function isVideoUrl(url: string): boolean {
  try {
    return VIDEO_EXTENSIONS.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/**
 * For text platforms whose media attachments need a binary upload this version does not
 * do (X, LinkedIn, Bluesky, Mastodon): the media urls are appended as links, so nothing
 * the user sent is dropped silently, and the length check counts them.
 */
export function textWithMediaLinks(content: string, mediaUrls: string[]): string {
  return [content.trim(), ...mediaUrls].filter((part) => part !== '').join('\n');
}

/** The first line, cut to `max` characters: a title for platforms that want one (YouTube, Pinterest, TikTok photos). */
export function titleFrom(content: string, max: number): string {
  const firstLine = content.trim().split('\n')[0] ?? '';
  const chars = [...firstLine];
  return chars.length <= max ? firstLine : `${chars.slice(0, max - 1).join('')}…`;
}
