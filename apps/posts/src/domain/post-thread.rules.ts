import { AccountPublication, DomainError, hasReplyChains, LIMITS, TargetAccount, THREAD_MAX_PARTS, ThreadPart, ThreadPartInput } from '@app/contracts';
import { mediaRefs } from '@app/media';
import { threadFor } from '@app/platforms/content/account-thread';
import { publishLimitRefusal } from '@app/platforms/content/publish-limits';
import { characterCount, checkAltText, checkContent, checkMediaUrls } from './post-content.rules';
import { refusalWithin } from './refusal-within';

/**
 * The rules of `thread` (parts after the post's content) and `autoSplit`. Each part passes the
 * create rules of a post's content and media; then each targeted account's thread (threadFor, the
 * function the publisher sends by) must keep its platform's limits: a part in a reply chain is a
 * post there, a part elsewhere is a comment (text only, the first comments' length). Every
 * refusal names the part's index in details.threadPart.
 */

/** The request's parts checked and stored whole ([] for none). */
export function checkThread(parts: ThreadPartInput[]): ThreadPart[] {
  if (parts.length > THREAD_MAX_PARTS) {
    throw new DomainError('too_many_thread_parts', `at most ${THREAD_MAX_PARTS} thread parts; ${parts.length} were given`, { details: { parts: parts.length } });
  }
  return parts.map((part, index) =>
    refusalWithin(`thread[${index}]`, { threadPart: index }, () => {
      const mediaUrls = part.mediaUrls ?? [];
      checkContent(part.content, mediaUrls);
      checkMediaUrls(mediaUrls);
      return { content: part.content, mediaUrls, altText: checkAltText(part.altText ?? [], mediaUrls) };
    }),
  );
}

/** Each account's thread (its publication's content auto-split where asked, then the parts) within its platform's limits. */
export function checkAccountThreads(
  post: { thread?: ThreadPart[]; autoSplit?: boolean },
  accounts: TargetAccount[],
  publicationOf: (account: TargetAccount) => Pick<AccountPublication, 'content'>,
): void {
  if ((post.thread ?? []).length === 0 && !post.autoSplit) return;
  for (const account of accounts) {
    const { parts } = threadFor({ content: publicationOf(account).content, thread: post.thread, autoSplit: post.autoSplit }, account.platform);
    if (parts.length > THREAD_MAX_PARTS) {
      // Auto-split stops counting just past the limit, so the count is a lower bound.
      throw new DomainError('too_many_thread_parts', `${account.platform}:${account.handle} would publish a thread of more than ${THREAD_MAX_PARTS} parts after the post`, {
        details: { accountId: account.accountId, limit: THREAD_MAX_PARTS },
      });
    }
    parts.forEach((part, index) => {
      const reason = partRefusal(account, part);
      if (reason) {
        throw new DomainError('thread_part_not_publishable', `thread[${index}]: ${account.platform}:${account.handle} would refuse it: ${reason.message}`, {
          details: { threadPart: index, accountId: account.accountId, platform: account.platform, reason: reason.code },
        });
      }
    });
  }
}

function partRefusal(account: TargetAccount, part: ThreadPart): { code: string; message: string } | null {
  if (hasReplyChains(account.platform)) return publishLimitRefusal(account.platform, { content: part.content, media: mediaRefs(part.mediaUrls, part.altText) });
  // Elsewhere a part is a comment under the post: text only, as long as a first comment may be.
  if (part.mediaUrls.length > 0) return { code: 'media_not_supported', message: 'thread parts are comments on this platform, and comments carry no media' };
  const length = characterCount(part.content);
  if (length > LIMITS.firstCommentMaxChars) return { code: 'content_too_long', message: `a comment has ${length} characters; at most ${LIMITS.firstCommentMaxChars}` };
  return null;
}
