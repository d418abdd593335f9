import { PostCreatedData, PostEvent, TargetAccount } from '@app/contracts';

/**
 * The event that starts publication attempt `attempt` to `accounts` (a publish, a retry, a schedule
 * firing, a create with publishNow); a retry's `threadResumes` are live accounts whose thread goes on.
 */
export function publishRequested(data: PostCreatedData, attempt: number, accounts: TargetAccount[], now: Date, threadResumes: TargetAccount[] = []): PostEvent {
  return {
    type: 'PublishRequested',
    data: {
      postId: data.postId,
      workspaceId: data.workspaceId,
      attempt,
      accounts,
      content: data.content,
      mediaUrls: data.mediaUrls,
      altText: data.altText ?? [],
      firstComments: data.firstComments,
      // What each account publishes is publicationFor(this, account), its platform call carries its platform's options.
      ...(data.overrides ? { overrides: data.overrides } : {}),
      ...(data.platformOptions ? { platformOptions: data.platformOptions } : {}),
      ...(data.thread?.length ? { thread: data.thread } : {}),
      ...(data.autoSplit ? { autoSplit: true } : {}),
      ...(threadResumes.length > 0 ? { threadResumes } : {}),
      requestedAt: now.toISOString(),
    },
  };
}
