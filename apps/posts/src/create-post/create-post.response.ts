import { CreatePostResponse, PostCreatedData, PostStatus } from '@app/contracts';

function distinct<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The create answer for a draft or scheduled post: the spec's shape, results empty. */
export function createPostResponse(data: PostCreatedData, status: PostStatus): CreatePostResponse {
  const targets = plural(data.accounts.length, 'account');
  return {
    post: { id: data.postId, status, scheduledAt: data.scheduledAt, platforms: distinct(data.accounts.map((a) => a.platform)) },
    accounts: data.accounts.map((a) => ({ accountId: a.accountId, platform: a.platform, account: a.handle })),
    results: [],
    note: data.scheduledAt ? `Scheduled for ${data.scheduledAt} on ${targets}.` : `Saved as a draft for ${targets}; nothing was published.`,
  };
}
