import { Platform } from '@app/contracts';
import { TestStack, tokenOf } from '../support/test-stack';

/**
 * Shared by the per-platform post specs (test/e2e/platform-options, meta-placement,
 * post-overrides): one stack with the sandbox and one workspace for the describe block, accounts
 * connected on it, and the requests and sandbox look-ups those specs make.
 */

export interface PostsAccount {
  id: string;
  platform: Platform;
  handle: string;
  /** The sandbox's token for the account: what its published items are filed under. */
  token: string;
  /** `platform:handle`, as a post's `accounts` names it. */
  ref: string;
}

/** Registers the stack's beforeAll/afterAll in the calling describe block; `handlePrefix` keeps each spec's handles apart. */
export function usePostsStack(handlePrefix: string) {
  let stack: TestStack;
  let key: string;
  let workspaceId: string;
  let seq = 0;

  beforeAll(async () => {
    // Publishing waits up to 8 s: media containers and uploads take a few polls on the sandbox.
    stack = await TestStack.start({ sandbox: true, overrides: { publishWaitMs: 8_000 } });
    ({ key, workspaceId } = await stack.workspace());
  });
  afterAll(() => stack.stop());

  const sandbox = () => stack.sandbox!.control;
  return {
    get stack(): TestStack {
      return stack;
    },
    get key(): string {
      return key;
    },
    sandbox,
    async account(platform: Platform, attributes?: Record<string, string>): Promise<PostsAccount> {
      const connected = await stack.connect(workspaceId, platform, `@${handlePrefix}${platform}${++seq}${Math.random().toString(36).slice(2, 6)}`, attributes);
      return { id: connected.id, platform, handle: connected.handle, token: tokenOf(connected.handle), ref: `${platform}:${connected.handle}` };
    },
    create: (body: Record<string, unknown>) => stack.request('POST', '/api/v1/posts', { key, body }),
    /** A file the sandbox's media host serves, described by its name and query (libs/platform-sandbox/src/media-host.ts). */
    mediaUrl: (file: string) => `${stack.sandbox!.mediaUrl}/media/${file}`,
    /** A fresh JPEG in Instagram's accepted 4:5 aspect ratio. */
    photo: () => `${stack.sandbox!.mediaUrl}/media/photo${++seq}.jpg?width=1080&height=1350`,
    /** The one post the sandbox published for this account. */
    itemOf(token: string) {
      const items = sandbox().published({ account: token, kind: 'post' });
      expect(items).toHaveLength(1);
      return items[0];
    },
  };
}
