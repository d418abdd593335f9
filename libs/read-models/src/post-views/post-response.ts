import { CreatePostResponse, PostDetail } from '@app/contracts';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** What the note adds for a post held for review. */
function review(post: PostDetail): string {
  if (post.approval?.state === 'pending') return ' Held for review: it is not published until a key with the approve scope approves it.';
  if (post.approval?.state === 'rejected') return ' Rejected in review: it is not published unless edited and approved.';
  return '';
}

function note(post: PostDetail): string {
  const targets = plural(post.accounts.length, 'account');
  const published = post.results.filter((r) => r.success).length;
  switch (post.status) {
    case 'draft':
      return `Saved as a draft for ${targets}; nothing was published.${review(post)}`;
    case 'scheduled':
      return `Scheduled for ${post.scheduledAt} on ${targets}.${review(post)}`;
    case 'publishing':
      return `Publishing to ${targets}; ${published} done so far. GET /api/v1/posts/${post.id} shows the outcome.`;
    case 'published':
      return `Published on ${post.accounts.length === 1 ? 'the account' : `all ${targets}`}.`;
    case 'partial':
      return `Published on ${published} of ${targets}. ${post.errorMessage ? `${post.errorMessage}. ` : ''}POST /api/v1/posts/${post.id}/retry retries the failed ones.`;
    case 'failed':
      return `Not published. ${post.errorMessage ?? ''}`.trim();
  }
}

/** The answer to create, publish and retry (the spec's create response), from the read model. */
export function postResponse(post: PostDetail): CreatePostResponse {
  return {
    post: { id: post.id, status: post.status, scheduledAt: post.scheduledAt, platforms: post.platforms, ...(post.approval ? { approval: post.approval } : {}) },
    accounts: post.accounts,
    results: post.results,
    note: note(post),
  };
}
