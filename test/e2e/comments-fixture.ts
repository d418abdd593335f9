import { connect, JSONCodec, NatsConnection } from 'nats';
import { AppConfig } from '@app/config';
import { CommentListItem, EventEnvelope, Platform, PLATFORMS, Subjects } from '@app/contracts';
import { TEST_NATS_URL } from '@app/testing';
import { TestStack, tokenOf } from '../support/test-stack';

/** Shared by test/e2e/comments-*.e2e-spec.ts: the stack with fast polling, and the steps every comment test takes. */

export const META_APP_SECRET = 'test-meta-app-secret';
export const META_VERIFY_TOKEN = 'test-verify-token';

export function startCommentsStack(overrides: Partial<AppConfig> = {}): Promise<TestStack> {
  return TestStack.start({
    sandbox: true,
    overrides: {
      // Every platform polled every 50 ms: a comment added on the sandbox shows in the list within a moment.
      commentsPollIntervalMs: Object.fromEntries(PLATFORMS.map((p) => [p, 50])) as Record<Platform, number>,
      metaAppSecret: META_APP_SECRET,
      metaWebhookVerifyToken: META_VERIFY_TOKEN,
      ...overrides,
    },
  });
}

export interface TestAccount {
  id: string;
  platform: Platform;
  handle: string;
  token: string;
}

export interface PublishedItem {
  postId: string;
  platformPostId: string;
  content: string;
}

let seq = 0;

export class CommentsWorld {
  constructor(readonly stack: TestStack) {}

  get sandbox() {
    return this.stack.sandbox!.control;
  }

  /** A file the sandbox's media host serves (posts on Instagram and YouTube need media). */
  mediaUrl(file: string): string {
    return `${this.stack.sandbox!.mediaUrl}/media/${file}`;
  }

  async account(workspaceId: string, platform: Platform): Promise<TestAccount> {
    const connected = await this.stack.connect(workspaceId, platform, `@${platform}${++seq}${Math.random().toString(36).slice(2, 6)}`);
    return { id: connected.id, platform, handle: connected.handle, token: tokenOf(connected.handle) };
  }

  /** Publishes a post now on one account (with media or first comments when given); its platform item is what comments go under. */
  async publish(
    key: string,
    account: TestAccount,
    content = `Launch day ${++seq}: our new app is here`,
    extra: { mediaUrls?: string[]; firstComments?: string[] } = {},
  ): Promise<PublishedItem> {
    const response = await this.stack.request('POST', '/api/v1/posts', { key, body: { content, accounts: [account.id], publishNow: true, ...extra } });
    expect(response.status).toBe(201);
    expect(response.body.results).toEqual([expect.objectContaining({ success: true })]);
    return { postId: response.body.post.id, platformPostId: response.body.results[0].postId, content };
  }

  comment(platform: Platform, item: PublishedItem | string, text: string, author = `fan${++seq}`) {
    return this.sandbox.addComment({ platform, parentId: typeof item === 'string' ? item : item.platformPostId, text, author });
  }

  async list(key: string, query = ''): Promise<{ status: number; body: { comments: CommentListItem[] } & Record<string, unknown> }> {
    return this.stack.request('GET', `/api/v1/comments${query}`, { key });
  }

  /** The list's entry for one platform comment id (undefined while the list does not show it). */
  async listed(key: string, platformCommentId: string): Promise<CommentListItem | undefined> {
    return (await this.list(key, '?limit=50')).body.comments.find((c) => c.platformCommentId === platformCommentId);
  }

  /** A new workspace with a Facebook account, a post of it and one comment under it, listed: where a test of acting on a comment starts. */
  async facebookComment(text: string): Promise<{ key: string; workspaceId: string; facebook: TestAccount; commentId: string }> {
    const { key, workspaceId } = await this.stack.workspace();
    const facebook = await this.account(workspaceId, 'facebook');
    const commentId = this.comment('facebook', await this.publish(key, facebook), text).id;
    await this.untilListed(key, [commentId]);
    return { key, workspaceId, facebook, commentId };
  }

  /** Waits until the list shows every one of these platform comment ids (the poller runs every 50 ms). */
  async untilListed(key: string, platformCommentIds: string[], timeoutMs = 10_000): Promise<CommentListItem[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await this.list(key, '?limit=50');
      const found = body.comments.filter((c) => platformCommentIds.includes(c.platformCommentId));
      if (found.length === platformCommentIds.length) return found;
      if (Date.now() > deadline) throw new Error(`not listed in time: ${platformCommentIds.join(', ')}`);
      await sleep(25);
    }
  }

  async eventsOfType(type: string): Promise<number> {
    const { rows } = await this.stack.db.pool.query<{ count: string }>('SELECT count(*) FROM events WHERE type = $1', [type]);
    return Number(rows[0].count);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A file's comment tests on one stack, with a NATS connection of their own to watch the relayed comment events. */
export interface CommentsSuite {
  readonly stack: TestStack;
  readonly world: CommentsWorld;
  /**
   * Subscribes to the next comment event of this type and answers how to wait for it. A plain
   * subscriber: the relay publishes to JetStream, and core NATS delivers it to anyone on the subject;
   * flushed before it answers, so an event published after the call is not missed.
   */
  nextCommentEvent(type: string): Promise<() => Promise<EventEnvelope>>;
}

/**
 * Starts the comments stack (`overrides` on top of startCommentsStack's) and the NATS connection
 * before the file's tests and closes both after; sandbox faults are cleared before each test.
 */
export function useCommentsSuite(overrides: Partial<AppConfig> = {}): CommentsSuite {
  const env = {} as { stack: TestStack; world: CommentsWorld; nc: NatsConnection };
  beforeAll(async () => {
    env.stack = await startCommentsStack(overrides);
    env.world = new CommentsWorld(env.stack);
    env.nc = await connect({ servers: TEST_NATS_URL });
  });
  afterAll(async () => {
    await env.nc?.close();
    await env.stack?.stop();
  });
  beforeEach(() => env.stack.sandbox!.control.clearFaults());
  return {
    get stack() {
      return env.stack;
    },
    get world() {
      return env.world;
    },
    async nextCommentEvent(type) {
      const subscription = env.nc.subscribe(new Subjects(env.stack.config.natsNamespace).event('comment-x', type), { max: 1, timeout: 5_000 });
      await env.nc.flush();
      return async () => {
        for await (const message of subscription) return JSONCodec<EventEnvelope>().decode(message.data);
        throw new Error(`no ${type} on NATS`);
      };
    },
  };
}
