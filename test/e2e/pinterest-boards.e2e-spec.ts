import { TestStack, tokenOf } from '../support/test-stack';

/**
 * GET /api/v1/accounts/:id/boards (issue 15): a Pinterest account's boards, through the gateway,
 * the accounts service (accounts.list-boards) and the connector to the sandbox's "List boards"
 * (`GET /v5/boards`, `page_size` up to 250 and `bookmark` paging:
 * https://developers.pinterest.com/docs/api/v5/boards-list). Scope read; the account must be the
 * key's workspace's; an account on a platform without boards is boards_not_supported.
 */
describe('GET /api/v1/accounts/:id/boards', () => {
  let stack: TestStack;
  let key: string;
  let workspaceId: string;
  let seq = 0;

  beforeAll(async () => {
    stack = await TestStack.start({ sandbox: true });
    ({ key, workspaceId } = await stack.workspace(['read']));
  });
  afterAll(() => stack.stop());

  const handle = () => `@boards${++seq}${Math.random().toString(36).slice(2, 6)}`;
  const boards = (accountId: string, withKey = key) => stack.request('GET', `/api/v1/accounts/${accountId}/boards`, { key: withKey });

  it("answers every board of the account, across Pinterest's pages", async () => {
    const pinterest = await stack.connect(workspaceId, 'pinterest', handle(), { boardId: '7001', boardName: 'Launches', moreBoards: '260' });
    const listings = () => stack.sandbox!.control.requestCount({ platform: 'pinterest', account: tokenOf(pinterest.handle), operation: 'identity' });
    const before = listings();
    const response = await boards(pinterest.id);
    expect(response.status).toBe(200);
    expect(response.body.boards).toHaveLength(261);
    expect(response.body.boards[0]).toEqual({ id: '7001', name: 'Launches', description: '', privacy: 'PUBLIC' });
    expect(new Set(response.body.boards.map((board: { id: string }) => board.id)).size).toBe(261);
    // 261 boards at 250 a page: two List boards calls, the second from the first's bookmark (no board twice).
    expect(listings() - before).toBe(2);
  });

  it('an account with no boards answers none', async () => {
    const pinterest = await stack.connect(workspaceId, 'pinterest', handle(), { boardId: '' });
    expect((await boards(pinterest.id)).body).toEqual({ boards: [] });
  });

  it('an account on a platform without boards is boards_not_supported, and nothing is asked of it', async () => {
    const x = await stack.connect(workspaceId, 'x', handle());
    const response = await boards(x.id);
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'boards_not_supported', details: { accountId: x.id, platform: 'x' } });
    expect(stack.sandbox!.control.requestCount({ platform: 'x', account: tokenOf(x.handle) })).toBe(0);
  });

  it("another workspace's account, or no account, is not_found", async () => {
    const other = await stack.workspace(['read']);
    const theirs = await stack.connect(other.workspaceId, 'pinterest', handle());
    expect((await boards(theirs.id)).status).toBe(404);
    expect((await boards('00000000-0000-4000-8000-000000000000')).body.error).toMatchObject({ code: 'not_found' });
    expect((await boards(theirs.id, other.key)).status).toBe(200);
  });
});
