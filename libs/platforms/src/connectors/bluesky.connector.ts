import type { CommentTarget, ConnectorAccount, PlatformComment, PlatformConnector, PlatformError, PublishOutcome, PublishRequest } from '../connector';
import { checkText, firstRefusal, requireText, TextRule } from '../content/content-rules';
import { textWithMediaLinks } from '../content/media';
import { graphemeLength, utf8ByteLength } from '../content/text-length';
import { codeForStatus, isTransientStatus, PlatformCallFailed, PlatformHttp, PlatformResponse } from '../http/platform-http';
import { failed, malformedAnswer, published, toOutcome, unreadablePublishAnswer } from '../outcome';
import { arrayAt, at, bearer, comparableText, ConnectorContext, snakeCase, stringAt } from './connector-context';

/**
 * A Bluesky post's text takes 300 graphemes and 3,000 bytes of UTF-8: the app.bsky.feed.post
 * lexicon (github.com/bluesky-social/atproto lexicons/app/bsky/feed/post.json) gives text
 * maxGraphemes 300 and maxLength 3000, a string's maxLength being UTF-8 bytes
 * (Lexicon spec, https://atproto.com/specs/lexicon#string).
 */
export const BLUESKY_TEXT: TextRule[] = [
  { field: 'text', max: 300, measure: graphemeLength, unit: 'graphemes' },
  { field: 'text', max: 3_000, measure: utf8ByteLength, unit: 'bytes of UTF-8' },
];
const POST_COLLECTION = 'app.bsky.feed.post';

/**
 * Bluesky (atproto XRPC): a post is an `app.bsky.feed.post` record created with
 * `com.atproto.repo.createRecord`; its url is built from the at-uri's rkey. A reply carries
 * `reply.root` and `reply.parent` strong refs, read with `com.atproto.repo.getRecord`.
 * Comments: `app.bsky.feed.getPostThread`. Reconciliation: `com.atproto.repo.listRecords`.
 * credentials.accessToken is the session's accessJwt; identity.platformAccountId the DID; identity.instanceUrl the account's PDS.
 */
export class BlueskyConnector implements PlatformConnector {
  readonly platform = 'bluesky' as const;
  private readonly http: PlatformHttp;

  constructor(private readonly ctx: ConnectorContext) {
    this.http = new PlatformHttp(mapBlueskyError, ctx.retry);
  }

  /** XRPC calls go to the account's own PDS (the configured base url when none is known). */
  private xrpc(account: ConnectorAccount): string {
    return `${(account.identity.instanceUrl ?? this.ctx.baseUrl).replace(/\/+$/, '')}/xrpc`;
  }

  async publish(account: ConnectorAccount, request: PublishRequest): Promise<PublishOutcome> {
    const text = textWithMediaLinks(request.content, request.media.map((m) => m.url));
    const refusal = firstRefusal(requireText(text), checkText(text, ...BLUESKY_TEXT));
    if (refusal) return failed(refusal);
    return toOutcome(() => this.createPost(account, { text }));
  }

  async comment(account: ConnectorAccount, target: CommentTarget, text: string): Promise<PublishOutcome> {
    const refusal = firstRefusal(requireText(text), checkText(text, ...BLUESKY_TEXT));
    if (refusal) return failed(refusal);
    const parentUri = target.kind === 'post' ? target.platformPostId : target.platformCommentId;
    return toOutcome(async () => {
      const parent = await this.getRecord(account, parentUri);
      const parentRef = { uri: parent.uri, cid: parent.cid };
      const root = at(parent.value, 'reply', 'root') ?? parentRef;
      return this.createPost(account, { text, reply: { root, parent: parentRef } });
    });
  }

  async findPublished(account: ConnectorAccount, request: PublishRequest): Promise<{ platformPostId: string; url: string } | null> {
    const query = new URLSearchParams({ repo: account.identity.platformAccountId, collection: POST_COLLECTION, limit: '25' });
    const response = await this.http.send({ method: 'GET', url: `${this.xrpc(account)}/com.atproto.repo.listRecords?${query}`, headers: bearer(account) });
    const wanted = comparableText(textWithMediaLinks(request.content, request.media.map((m) => m.url)));
    const match = arrayAt(response.body, 'records').find((record) => comparableText(stringAt(record, 'value', 'text') ?? '') === wanted);
    const uri = stringAt(match, 'uri');
    return uri ? { platformPostId: uri, url: postUrl(account.identity.handle, uri) } : null;
  }

  async listComments(account: ConnectorAccount, platformPostId: string): Promise<PlatformComment[]> {
    const query = new URLSearchParams({ uri: platformPostId, depth: '10' });
    const response = await this.http.send({ method: 'GET', url: `${this.xrpc(account)}/app.bsky.feed.getPostThread?${query}`, headers: bearer(account) });
    const comments: PlatformComment[] = [];
    const walk = (node: unknown, parentUri: string): void => {
      for (const reply of arrayAt(node, 'replies')) {
        const uri = stringAt(reply, 'post', 'uri');
        if (!uri) throw malformedAnswer('uri on a reply');
        const handle = stringAt(reply, 'post', 'author', 'handle') ?? 'unknown';
        comments.push({
          platformCommentId: uri,
          author: handle,
          text: stringAt(reply, 'post', 'record', 'text') ?? '',
          createdAt: stringAt(reply, 'post', 'record', 'createdAt') ?? '',
          url: postUrl(handle, uri),
          parentPlatformPostId: platformPostId,
          inReplyToCommentId: parentUri === platformPostId ? null : parentUri,
        });
        walk(reply, uri);
      }
    };
    walk(at(response.body, 'thread'), platformPostId);
    return comments.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  private async createPost(account: ConnectorAccount, fields: Record<string, unknown>): Promise<PublishOutcome> {
    const response = await this.http.send({
      method: 'POST',
      url: `${this.xrpc(account)}/com.atproto.repo.createRecord`,
      headers: bearer(account),
      json: {
        repo: account.identity.platformAccountId,
        collection: POST_COLLECTION,
        record: { $type: POST_COLLECTION, ...fields, createdAt: new Date().toISOString() },
      },
      irreversible: true,
    });
    const uri = stringAt(response.body, 'uri');
    if (!uri) throw unreadablePublishAnswer('uri');
    return published(uri, postUrl(account.identity.handle, uri));
  }

  private async getRecord(account: ConnectorAccount, uri: string): Promise<{ uri: string; cid: string; value: unknown }> {
    const parts = parseAtUri(uri);
    if (!parts) throw new PlatformCallFailed({ code: 'invalid_parent', message: `${uri} is not an at:// post uri`, retryable: false });
    const query = new URLSearchParams(parts);
    const response = await this.http.send({ method: 'GET', url: `${this.xrpc(account)}/com.atproto.repo.getRecord?${query}`, headers: bearer(account) });
    const cid = stringAt(response.body, 'cid');
    if (!cid) throw malformedAnswer('cid');
    return { uri: stringAt(response.body, 'uri') ?? uri, cid, value: at(response.body, 'value') };
  }
}

/** at://{repo}/{collection}/{rkey} */
function parseAtUri(uri: string): { repo: string; collection: string; rkey: string } | null {
  const match = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
  return match ? { repo: match[1], collection: match[2], rkey: match[3] } : null;
}

/** https://bsky.app/profile/{handle}/post/{rkey}, the rkey being the at-uri's last segment. */
function postUrl(handle: string, uri: string): string {
  return `https://bsky.app/profile/${handle.replace(/^@/, '')}/post/${uri.split('/').pop()}`;
}

/**
 * Refused tokens, as the reference PDS answers them (bluesky-social/atproto, packages/pds
 * auth-verifier and com.atproto.server.refreshSession): 400 ExpiredToken "Token has expired"
 * (401 when the AppView verifies it) or "Token has been revoked" for a spent refreshJwt;
 * 400 InvalidToken "Token could not be verified"; 401 AuthenticationRequired (a wrong app
 * password, or a repo that is not the session's) and 401 AuthMissing (no token).
 */
const TOKEN_REFUSALS = new Map([
  ['ExpiredToken', 'access_token_expired'],
  ['InvalidToken', 'access_token_invalid'],
  ['AuthenticationRequired', 'access_token_invalid'],
  ['AuthMissing', 'access_token_invalid'],
]);

/** XRPC errors: {"error": "InvalidRequest", "message": "..."} (https://atproto.com/specs/xrpc#error-responses). */
export function mapBlueskyError(response: PlatformResponse): PlatformError {
  const name = stringAt(response.body, 'error');
  return {
    code: response.status === 429 ? 'rate_limited' : name ? (TOKEN_REFUSALS.get(name) ?? snakeCase(name)) : codeForStatus(response.status),
    message: stringAt(response.body, 'message') ?? name ?? `Bluesky answered HTTP ${response.status}`,
    retryable: isTransientStatus(response.status),
  };
}
