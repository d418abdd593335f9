import { xWeightedLength } from '@app/platforms/content/text-length';
import { existing, field, NewComment, PlatformDialect, PlatformRefusal, required, resetEpochSeconds, rootPostId } from '../dialect';
import type { SandboxItem, SandboxStore } from '../store';

const TITLES: Record<number, string> = { 400: 'Invalid Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable' };

function postId(store: SandboxStore): string {
  return String(1_790_000_000_000_000_000n + BigInt(store.nextSeq()));
}

function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  return store.add({ platform: 'x', account, owner: author, id: postId(store), kind: 'comment', text, mediaUrls: [], parentId: parent.id, postId: rootPostId(parent), author, extra: {} });
}

/** X API v2: POST /2/tweets, recent search by conversation_id, a user's posts. Errors are RFC 7807 problems. */
export const xDialect: PlatformDialect = {
  platform: 'x',
  error: (status, code, message) => ({
    status,
    body: {
      title: TITLES[status] ?? 'Error',
      type: code ? `https://api.twitter.com/2/problems/${code}` : 'about:blank',
      status,
      detail: message,
    },
  }),
  rateLimited: (resetAfterSeconds) => ({
    status: 429,
    headers: { 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(resetEpochSeconds(resetAfterSeconds)) },
    body: { title: 'Too Many Requests', type: 'about:blank', status: 429, detail: 'Too Many Requests' },
  }),
  // X answers every refused token (unknown, expired, revoked) with the same problem.
  unauthorized: () => ({ status: 401, body: { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' } }),
  createComment,
  routes: [
    {
      method: 'POST',
      url: '/2/tweets',
      operation: ({ body }) => (field(body, 'reply') ? 'comment' : 'publish'),
      handle: ({ store, account, body }) => {
        const text = required(field(body, 'text'), 'text', 'invalid-request');
        // 280 weighted characters, counted as "Counting characters" documents (https://docs.x.com/fundamentals/counting-characters).
        if (xWeightedLength(text) > 280) throw new PlatformRefusal(400, 'invalid-request', 'Your Tweet text is too long. For more information on how Twitter determines text length see https://github.com/twitter/twitter-text.');
        const replyTo = field(field(body, 'reply'), 'in_reply_to_tweet_id');
        const item =
          typeof replyTo === 'string'
            ? createComment(store, { account, parent: existing(store, 'x', replyTo, 'invalid-request'), text, author: account })
            : store.add({ platform: 'x', account, owner: account, id: postId(store), kind: 'post', text, mediaUrls: [], parentId: null, postId: null, author: account, extra: {} });
        return { status: 201, body: { data: { id: item.id, text: item.text, edit_history_tweet_ids: [item.id] } } };
      },
    },
    {
      method: 'GET',
      url: '/2/tweets/search/recent',
      operation: 'list_comments',
      handle: ({ store, query }) => {
        const conversation = /^conversation_id:(\d+)$/.exec(query.query ?? '');
        if (!conversation) throw new PlatformRefusal(400, 'invalid-request', 'query must be conversation_id:<id> in the sandbox');
        const replies = store.commentsUnder('x', conversation[1]);
        return {
          body: {
            data: replies.map((item) => ({
              id: item.id,
              text: item.text,
              author_id: `u-${item.author}`,
              created_at: item.createdAt,
              conversation_id: conversation[1],
              referenced_tweets: [{ type: 'replied_to', id: item.parentId }],
            })),
            includes: { users: [...new Set(replies.map((item) => item.author))].map((author) => ({ id: `u-${author}`, username: author, name: author })) },
            meta: { result_count: replies.length },
          },
        };
      },
    },
    {
      method: 'GET',
      url: '/2/users/:id/tweets',
      operation: 'lookup',
      // User Posts timeline ("Timelines", https://docs.x.com/x-api/posts/timelines/introduction): `id` is a numeric
      // user id; a handle there is an invalid parameter, an unknown id a not-found error.
      handle: ({ store, identity, params }) => {
        const { id } = params;
        if (!/^\d{1,19}$/.test(id)) {
          return {
            status: 400,
            body: {
              errors: [{ parameters: { id: [id] }, message: `The \`id\` query parameter value [${id}] is not valid` }],
              title: 'Invalid Request',
              detail: 'One or more parameters to your request was invalid.',
              type: 'https://api.twitter.com/2/problems/invalid-request',
            },
          };
        }
        const user = identity?.platformAccountId === id ? identity : store.auth.byPlatformId('x', id);
        if (!user) {
          const notFound = { value: id, detail: `Could not find user with id: [${id}].`, title: 'Not Found Error', resource_type: 'user', parameter: 'id', resource_id: id, type: 'https://api.twitter.com/2/problems/resource-not-found' };
          return { body: { errors: [notFound] } };
        }
        const posts = store.postsOf('x', user.key).map((item) => ({ id: item.id, text: item.text, created_at: item.createdAt }));
        return { body: posts.length > 0 ? { data: posts, meta: { result_count: posts.length } } : { meta: { result_count: 0 } } };
      },
    },
  ],
};
