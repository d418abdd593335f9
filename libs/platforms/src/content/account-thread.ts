import { hasReplyChains, Platform, THREAD_MAX_PARTS, ThreadPart } from '@app/contracts';
import { fitsPlatformText } from './publish-limits';
import { splitIntoThread } from './split-into-thread';

/** What one account publishes as a thread: the post's own text, then the parts that follow it, in order. */
export interface AccountThread {
  content: string;
  parts: ThreadPart[];
}

/**
 * The thread an account publishes: with `autoSplit`, on a platform with reply chains, content
 * over the platform's text rule becomes numbered parts (the first stays the post, with its media),
 * followed by the post's own thread parts. The one answer the posts service validates and the
 * publisher sends, so what was checked is what goes out.
 */
export function threadFor(post: { content: string; thread?: ThreadPart[]; autoSplit?: boolean }, platform: Platform): AccountThread {
  const given = post.thread ?? [];
  if (!post.autoSplit || !hasReplyChains(platform)) return { content: post.content, parts: given };
  // One part more than a thread may hold after the post is enough to know it is too long.
  const [first, ...rest] = splitIntoThread(post.content, (part) => fitsPlatformText(platform, part), THREAD_MAX_PARTS + 2);
  return { content: first, parts: [...rest.map((content): ThreadPart => ({ content, mediaUrls: [], altText: [] })), ...given] };
}
