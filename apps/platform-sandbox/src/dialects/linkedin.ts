import { codePointLength } from '@app/platforms/content/text-length';
import type { SandboxIdentity } from '../auth/authority';
import { field, NewComment, PlatformDialect, PlatformRefusal, required, rootPostId, RouteContext } from '../dialect';
import type { SandboxItem, SandboxStore } from '../store';

const DEFAULT_CODES: Record<number, string> = { 400: 'ILLEGAL_ARGUMENT', 401: 'REVOKED_ACCESS_TOKEN', 403: 'ACCESS_DENIED', 404: 'NOT_FOUND', 422: 'UNPROCESSABLE_ENTITY', 500: 'INTERNAL_SERVER_ERROR', 503: 'SERVICE_UNAVAILABLE' };

/**
 * LinkedIn's versioned API refuses calls without its version headers, and a release
 * outside its support window: each monthly release (YYYYMM) is supported for one year,
 * then answers 426 NONEXISTENT_VERSION ("LinkedIn Marketing API Versioning",
 * https://learn.microsoft.com/en-us/linkedin/marketing/versioning). Measured on the
 * sandbox clock, so tests can move past a sunset.
 */
export function requireVersionHeaders({ headers, store }: RouteContext): void {
  const version = String(headers['linkedin-version'] ?? '');
  const release = /^(\d{4})(\d{2})(\.\d{2})?$/.exec(version);
  if (!release) throw new PlatformRefusal(400, 'VERSION_MISSING', 'A version must be present. Please specify a version by adding the LinkedIn-Version header');
  const [year, month] = [Number(release[1]), Number(release[2]) - 1];
  const now = store.auth.now();
  if (now < Date.UTC(year, month, 1) || now >= Date.UTC(year + 1, month, 1)) throw new PlatformRefusal(426, 'NONEXISTENT_VERSION', `Requested version ${version} is not active`);
  if (headers['x-restli-protocol-version'] !== '2.0.0') throw new PlatformRefusal(400, 'ILLEGAL_ARGUMENT', 'X-Restli-Protocol-Version 2.0.0 is required');
}

/** A LinkedIn identity's URN: sandbox ids are URNs, except a bare id, which is a member's. */
export function linkedInUrn(identity: SandboxIdentity): string {
  return identity.platformAccountId.startsWith('urn:li:') ? identity.platformAccountId : `urn:li:person:${identity.platformAccountId}`;
}

/**
 * A member's token acts as the member and as the organizations the member administers
 * (an organization's posts and comments are made with an administrator's token, Posts API
 * and Comments API permissions); any other author is refused.
 */
function requireActsAs(ctx: RouteContext, urn: string, resource: string): void {
  const identity = ctx.identity as SandboxIdentity;
  const administered = ctx.store.auth.managedBy(identity.key).filter((managed) => managed.kind === 'organization');
  if (![identity, ...administered].some((actor) => linkedInUrn(actor) === urn)) {
    throw new PlatformRefusal(403, 'ACCESS_DENIED', `Not enough permissions to access: ${resource} as ${urn}`);
  }
}

/**
 * LinkedIn's answers to a refused token ("Error Handling",
 * https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling).
 */
const REFUSED_TOKEN: Record<'missing' | 'unknown' | 'expired' | 'revoked', { serviceErrorCode: number; code?: string; message: string }> = {
  missing: { serviceErrorCode: 401, message: 'Empty oauth2_access_token' },
  unknown: { serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' },
  revoked: { serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN', message: 'The token used in the request has been revoked by the user' },
  expired: { serviceErrorCode: 65602, code: 'EXPIRED_ACCESS_TOKEN', message: 'The token used in the request has expired' },
};

/** LinkedIn stores backslash-escaped little text; the sandbox keeps what the user sees. */
function unescapeLittleText(text: string): string {
  return text.replace(/\\([\\|{}@[\]()<>#*_~])/g, '$1');
}

function createComment(store: SandboxStore, { account, parent, text, author }: NewComment): SandboxItem {
  const postId = rootPostId(parent);
  const activity = postId.split(':').pop();
  return store.add({
    platform: 'linkedin', account, owner: author, id: `urn:li:comment:(urn:li:activity:${activity},${store.nextSeq()})`, kind: 'comment',
    text, mediaUrls: [], parentId: parent.id, postId, author, extra: {},
  });
}

/**
 * A comment as the Comments API answers it ("Comments API",
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/comments-api):
 * `commentUrn` names it everywhere; `id` is only its number under the post.
 */
function commentJson(item: SandboxItem) {
  const stamp = { actor: item.author, time: Date.parse(item.createdAt) };
  return {
    actor: item.author,
    commentUrn: item.id,
    id: item.id.replace(/^.*,(\d+)\)$/, '$1'),
    object: item.postId,
    message: { text: item.text, attributes: [] },
    created: stamp,
    lastModified: stamp,
    ...(item.parentId !== item.postId ? { parentComment: item.parentId } : {}),
  };
}

/** LinkedIn Posts API (/rest/posts) and socialActions comments, with its version headers checked. */
export const linkedinDialect: PlatformDialect = {
  platform: 'linkedin',
  error: (status, code, message) => ({ status, body: { status, serviceErrorCode: 100, code: code ?? DEFAULT_CODES[status] ?? 'ERROR', message } }),
  unauthorized: (reason) => ({ status: 401, body: { status: 401, ...REFUSED_TOKEN[reason] } }),
  rateLimited: (resetAfterSeconds) => ({
    status: 429,
    headers: { 'retry-after': String(resetAfterSeconds) },
    body: { status: 429, serviceErrorCode: 101, code: 'TOO_MANY_REQUESTS', message: 'Resource level throttle APPLICATION DAY limit reached' },
  }),
  createComment,
  routes: [
    {
      method: 'POST',
      url: '/rest/posts',
      operation: 'publish',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const { store, account, body } = ctx;
        const author = required(field(body, 'author'), '/author');
        requireActsAs(ctx, author, 'partnerApiPostsExternal.CREATE');
        const commentary = required(field(body, 'commentary'), '/commentary');
        // 3,000 characters of commentary as received: escaped little text ("Posts API", "Little Text Format",
        // https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/little-text-format),
        // refused with the message LinkedIn gives (n8n-io/n8n#22899).
        const length = codePointLength(commentary);
        if (length > 3_000) throw new PlatformRefusal(400, undefined, `com.linkedin.content.common.exception.BadRequestResponseException: ShareCommentary text length (${length} characters) exceeded the maximum allowed (3000 characters)`);
        if (field(body, 'lifecycleState') !== 'PUBLISHED') throw new PlatformRefusal(422, 'UNPROCESSABLE_ENTITY', '/lifecycleState must be PUBLISHED');
        const item = store.add({
          platform: 'linkedin', account, owner: author, id: `urn:li:share:${7_200_000_000_000_000_000n + BigInt(store.nextSeq())}`, kind: 'post',
          text: unescapeLittleText(commentary), mediaUrls: [], parentId: null, postId: null, author, extra: {},
        });
        return { status: 201, headers: { 'x-restli-id': item.id } };
      },
    },
    {
      method: 'POST',
      url: '/rest/socialActions/:urn/comments',
      operation: 'comment',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const { store, account, params, body } = ctx;
        const parent = store.find('linkedin', params.urn);
        if (!parent) throw new PlatformRefusal(404, 'NOT_FOUND', `Not Found: ${params.urn}`);
        const actor = required(field(body, 'actor'), '/actor');
        required(field(body, 'object'), '/object');
        requireActsAs(ctx, actor, 'partnerApiSocialActions.CREATE');
        const text = unescapeLittleText(required(field(field(body, 'message'), 'text'), '/message/text'));
        const comment = commentJson(createComment(store, { account, parent, text, author: actor }));
        // Rest.li names the created entity by its key in x-restli-id: for a comment, its number.
        return { status: 201, headers: { 'x-restli-id': comment.id }, body: comment };
      },
    },
    {
      method: 'GET',
      url: '/rest/socialActions/:urn/comments',
      operation: 'list_comments',
      handle: (ctx) => {
        requireVersionHeaders(ctx);
        const elements = ctx.store.commentsUnder('linkedin', ctx.params.urn).map(commentJson);
        return { body: { elements, paging: { start: 0, count: elements.length, total: elements.length } } };
      },
    },
  ],
};
