import { DomainError, PostEvent } from '@app/contracts';
import { deciderSpec } from '@app/testing';
import { CreatePost, PostCommand, RecordAccountOutcome, StartAccountPublish } from './post.commands';
import { postDecider } from './post.decider';

/** Shared fixtures of the post decider's specs (one spec file per decision family). */
export const spec = deciderSpec(postDecider);

export const now = new Date('2030-01-01T12:00:00Z');
export const later = new Date('2030-01-01T12:00:05Z');
export const account = { accountId: 'a-1', platform: 'x' as const, handle: '@acme' };

export function create(overrides: Partial<CreatePost> = {}): CreatePost {
  return {
    type: 'CreatePost',
    postId: 'p-1',
    workspaceId: 'w-1',
    content: 'hello',
    mediaUrls: [],
    altText: [],
    firstComments: [],
    thread: [],
    autoSplit: false,
    accounts: [account],
    scheduledAt: undefined,
    publishNow: false,
    idempotency: null,
    now,
    ...overrides,
  };
}

/** The events `command` decides on a post with no history. */
export const createdBy = (command: CreatePost): PostEvent[] => spec.given([]).when(command).events();

/** `history` followed by what `command` decides on it. */
export const run = (history: PostEvent[], command: PostCommand): PostEvent[] => spec.given(history).when(command).history();

/** A post to X and Facebook with one first comment, and its first publication requested. */
export const x = { accountId: 'a-x', platform: 'x' as const, handle: '@acme' };
export const fb = { accountId: 'a-fb', platform: 'facebook' as const, handle: '@acme' };
export const twoAccountPost = createdBy(create({ accounts: [x, fb], firstComments: ['first!'] }));
export const publishing = run(twoAccountPost, { type: 'PublishPost', now });

export const start = (accountId: string, attempt = 1, deliveryId = 'run-1'): StartAccountPublish => ({ type: 'StartAccountPublish', accountId, attempt, deliveryId, now });

export const published = (accountId: string, attempt = 1): RecordAccountOutcome => ({
  type: 'RecordAccountOutcome',
  accountId,
  attempt,
  outcome: { status: 'published', platformPostId: `pp-${accountId}`, url: `https://example.com/${accountId}`, reconciled: false },
  now: later,
});

export const failed = (accountId: string, attempt = 1): RecordAccountOutcome => ({
  type: 'RecordAccountOutcome',
  accountId,
  attempt,
  outcome: { status: 'failed', error: { code: 'content_too_long', message: 'too long', retryable: false } },
  now: later,
});

/** The code and details of the DomainError `run` throws (a rule's refusal); fails the test when it throws none. */
export function refusal(run: () => unknown): { code: string; details: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, details: error.extra.details };
    throw error;
  }
  throw new Error('expected a refusal');
}
