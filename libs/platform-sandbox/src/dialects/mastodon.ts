import { kindOf, MEDIA_TYPES, MediaType } from '@app/media';
import { existing, field, NewComment, PlatformDialect, PlatformRefusal, PlatformRoute, required, rootPostId } from '../dialect';
import { isSandboxFilePart } from '../multipart';
import { namedToFailProcessing, SandboxItem, SandboxStore, SandboxUpload } from '../store';
import { inspectUpload, MIB } from './uploaded-media';
import { ModerationRefusals, ownComment } from './moderation';
import { commentAuthor } from './comment-author';
import { followerCount, itemCounts } from './metrics-growth';

const INSTANCE = 'https://mastodon.sandbox';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function statusId(store: SandboxStore): string {
  return String(112_000_000_000_000_000n + BigInt(store.nextSeq()));
}

function createComment(store: SandboxStore, { account, parent, text, author, media, extra }: NewComment): SandboxItem {
  return store.add({ platform: 'mastodon', account, owner: author, id: statusId(store), kind: 'comment', text, mediaUrls: [], media, parentId: parent.id, postId: rootPostId(parent), author, extra: extra ?? {} });
}

/**
 * An instance's defaults ("Posting to your profile > Attachments", https://docs.joinmastodon.org/user/posting/#media):
 * images and animated GIFs up to 16 MB, videos up to 99 MB; up to 4 attachments per status.
 */
const MAX_BYTES: Record<'image' | 'gif' | 'video', number> = { image: 16 * MIB, gif: 16 * MIB, video: 99 * MIB };
const MAX_ATTACHMENTS = 4;
/** MediaAttachment::MAX_DESCRIPTION_LENGTH (https://github.com/mastodon/mastodon/blob/main/app/models/media_attachment.rb). */
const MAX_DESCRIPTION = 1_500;
const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/gif': 'mp4', 'image/webp': 'webp', 'video/mp4': 'mp4', 'video/quicktime': 'mp4', 'video/webm': 'mp4' };

/** Mastodon answers model validations as 422 {"error": "Validation failed: ..."} (https://docs.joinmastodon.org/methods/media/#v2). */
function unprocessable(message: string): PlatformRefusal {
  return new PlatformRefusal(422, undefined, message);
}

function attachmentType(upload: SandboxUpload): 'image' | 'gifv' | 'video' {
  const kind = kindOf(upload.contentType as MediaType);
  return kind === 'gif' ? 'gifv' : kind;
}

/**
 * A MediaAttachment (https://docs.joinmastodon.org/entities/MediaAttachment/); `url` stays null
 * while the full-size file is processed (a ProcessingMediaAttachment).
 */
function attachmentJson(upload: SandboxUpload) {
  const path = `${INSTANCE}/system/media_attachments/files/${upload.id}`;
  return {
    id: upload.id,
    type: attachmentType(upload),
    url: upload.state === 'ready' ? `${path}/original/${upload.id}.${EXTENSIONS[upload.contentType]}` : null,
    preview_url: `${path}/small/${upload.id}.jpeg`,
    remote_url: null,
    text_url: null,
    meta: {},
    description: upload.altText,
    blurhash: null,
  };
}

/**
 * The attachments a status names (media_ids[]): as PostStatusService#validate_media! checks them
 * (https://github.com/mastodon/mastodon/blob/main/app/services/post_status_service.rb): at most 4,
 * a video alone, each processed. Ids that are not this account's unattached media are refused.
 */
function attachableMedia(store: SandboxStore, account: string, ids: unknown): SandboxUpload[] {
  if (ids === undefined) return [];
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) throw unprocessable('Validation failed: media_ids must be a list of ids');
  if (ids.length > MAX_ATTACHMENTS) throw unprocessable(`Cannot attach more than ${MAX_ATTACHMENTS} files`);
  const uploads = ids.map((id: string) => store.upload('mastodon', id));
  if (uploads.some((upload) => !upload || upload.account !== account || upload.attachedTo !== null)) throw unprocessable('Validation failed: Media attachments could not be found');
  const found = uploads as SandboxUpload[];
  if (found.length > 1 && found.some((upload) => attachmentType(upload) === 'video')) throw unprocessable('Cannot attach a video to a post that already contains images');
  if (found.some((upload) => upload.state !== 'ready')) throw unprocessable('Cannot attach files that have not finished processing. Try again in a moment!');
  return found;
}

/**
 * Media uploads: `POST /api/v2/media` and `GET /api/v1/media/:id` (https://docs.joinmastodon.org/methods/media/).
 * Images are processed at once (200); GIFs (made gifv) and videos in the background (202, url null),
 * failing for a file named to fail (namedToFailProcessing in store.ts).
 */
const MEDIA_ROUTES: PlatformRoute[] = [
  {
    method: 'POST',
    url: '/api/v2/media',
    operation: 'upload',
    handle: ({ store, account, body }) => {
      const file = field(body, 'file');
      if (!isSandboxFilePart(file)) throw unprocessable("Validation failed: File can't be blank");
      const description = field(body, 'description');
      if (typeof description === 'string' && [...description].length > MAX_DESCRIPTION) {
        throw unprocessable(`Validation failed: Description is too long (maximum is ${MAX_DESCRIPTION} characters)`);
      }
      const found = inspectUpload(file.head);
      if (!(MEDIA_TYPES as readonly string[]).includes(found.contentType)) throw unprocessable('Validation failed: File content type is invalid, File is invalid');
      const kind = kindOf(found.contentType as MediaType);
      if (file.size > MAX_BYTES[kind]) throw unprocessable(`Validation failed: File file size must be less than ${MAX_BYTES[kind] / MIB} MB`);
      const upload = store.addUpload({
        platform: 'mastodon', account, id: String(110_000_000_000_000_000n + BigInt(store.nextSeq())), ...found,
        declaredBytes: file.size, receivedBytes: file.size,
        altText: typeof description === 'string' && description !== '' ? description : null, state: 'ready', readyAt: Date.now(),
        extra: { fileName: file.filename },
      });
      // Since 4.0, images are processed synchronously (200); video and gifv asynchronously (202).
      if (kind === 'image') return { status: 200, body: attachmentJson(upload) };
      store.startProcessing(upload, namedToFailProcessing(file.filename) ? 'File content type is invalid, File is invalid' : null);
      return { status: 202, body: attachmentJson(upload) };
    },
  },
  {
    method: 'GET',
    url: '/api/v1/media/:id',
    operation: 'upload_status',
    // 206 with an empty body while processing, 200 once processed, 422 when processing failed, 404 when not yours.
    handle: ({ store, account, params }) => {
      const upload = store.upload('mastodon', params.id);
      if (!upload || upload.account !== account) throw new PlatformRefusal(404, undefined, 'Record not found');
      if (upload.state === 'failed') throw unprocessable(`Validation failed: ${upload.failure}`);
      if (upload.state !== 'ready') return { status: 206, body: '' };
      return { status: 200, body: attachmentJson(upload) };
    },
  },
];

/** Mastodon hides whether a status it will not let you touch exists: 404 "Record not found" either way. */
const MASTODON_MODERATION_REFUSALS: ModerationRefusals = {
  notFound: () => new PlatformRefusal(404, undefined, 'Record not found'),
  notAllowed: () => new PlatformRefusal(404, undefined, 'Record not found'),
};

/**
 * A Status entity (https://docs.joinmastodon.org/entities/Status/): `account` is its author, an
 * Account entity (https://docs.joinmastodon.org/entities/Account/) with `id`, `username`, `acct`
 * (the username for a local account) and `display_name`.
 */
function statusJson(store: SandboxStore, item: SandboxItem) {
  const author = commentAuthor(store, item, (name) => `acct-${name}`);
  const counts = itemCounts(store, item);
  return {
    id: item.id,
    created_at: item.createdAt,
    in_reply_to_id: item.parentId,
    visibility: 'public',
    content: `<p>${escapeHtml(item.text).replace(/\n/g, '<br />')}</p>`,
    uri: `${INSTANCE}/users/${author.handle}/statuses/${item.id}`,
    url: `${INSTANCE}/@${author.handle}/${item.id}`,
    account: { id: author.id, username: author.handle, acct: author.handle, display_name: author.displayName },
    media_attachments: item.media.map(attachmentJson),
    // Every Status carries its counts (https://docs.joinmastodon.org/entities/Status/#replies_count).
    replies_count: counts.comments,
    reblogs_count: counts.shares,
    favourites_count: counts.likes,
  };
}

/** Doorkeeper's descriptions of a refused bearer token, as Mastodon answers them (401 {"error": ...}). */
const TOKEN_REFUSALS = { missing: 'The access token is invalid', unknown: 'The access token is invalid', revoked: 'The access token was revoked', expired: 'The access token expired' };

/** Mastodon REST API, honouring Idempotency-Key on status creation like the real server (per account). */
/**
 * The options of "Post a new status" (https://docs.joinmastodon.org/methods/statuses/#create) a status keeps:
 * visibility (public, unlisted, private or direct; default public), spoiler_text, language (an ISO 639 code).
 * Anything else is refused with the 422 Mastodon answers for an invalid record.
 */
function statusOptions(body: unknown): Record<string, string> {
  const visibility = String(field(body, 'visibility') ?? 'public');
  if (!['public', 'unlisted', 'private', 'direct'].includes(visibility)) throw new PlatformRefusal(422, undefined, 'Validation failed: Visibility is not included in the list');
  const spoiler = field(body, 'spoiler_text');
  const language = field(body, 'language');
  if (language !== undefined && !/^[a-z]{2,3}$/.test(String(language))) throw new PlatformRefusal(422, undefined, 'Validation failed: Language is not a valid ISO 639 code');
  return { visibility, ...(typeof spoiler === 'string' && spoiler !== '' ? { spoiler_text: spoiler } : {}), ...(language !== undefined ? { language: String(language) } : {}) };
}

export const mastodonDialect: PlatformDialect = {
  platform: 'mastodon',
  error: (_status, _code, message) => ({ status: _status, body: { error: message } }),
  // https://docs.joinmastodon.org/methods/accounts/#verify_credentials: 401 {"error": "The access token is invalid"}
  // Doorkeeper's refusal of a token without the method's scope (https://docs.joinmastodon.org/api/oauth-scopes/).
  insufficientScope: () => ({ status: 403, body: { error: 'This action is outside the authorized scopes' } }),
  unauthorized: (reason) => ({ status: 401, body: { error: TOKEN_REFUSALS[reason] } }),
  rateLimited: (resetAfterSeconds) => ({
    status: 429,
    headers: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': new Date(Date.now() + resetAfterSeconds * 1000).toISOString() },
    body: { error: 'Too many requests' },
  }),
  createComment,
  routes: [
    ...MEDIA_ROUTES,
    {
      method: 'POST',
      url: '/api/v1/statuses',
      operation: ({ body }) => (field(body, 'in_reply_to_id') ? 'comment' : 'publish'),
      handle: ({ store, account, body, headers }) => {
        const key = headers['idempotency-key'];
        const remembered = typeof key === 'string' ? store.idempotency.get(`${account}|${key}`) : undefined;
        if (remembered) return { body: statusJson(store, existing(store, 'mastodon', remembered)) };
        const media = attachableMedia(store, account, field(body, 'media_ids'));
        // "status: If media_ids is provided, this becomes optional" (https://docs.joinmastodon.org/methods/statuses/#create).
        const text = media.length > 0 ? String(field(body, 'status') ?? '') : required(field(body, 'status'), 'status');
        const options = statusOptions(body);
        // The content warning counts toward the 500 characters with the text (Mastodon's StatusLengthValidator).
        if ([...`${options.spoiler_text ?? ''}${text}`].length > 500) throw new PlatformRefusal(422, undefined, 'Validation failed: Text character limit of 500 exceeded');
        const replyTo = field(body, 'in_reply_to_id');
        const item =
          typeof replyTo === 'string'
            ? // A reply is a status with in_reply_to_id, media_ids and all (https://docs.joinmastodon.org/methods/statuses/#create).
              createComment(store, { account, parent: existing(store, 'mastodon', replyTo), text, author: account, media, extra: options })
            : store.add({ platform: 'mastodon', account, owner: account, id: statusId(store), kind: 'post', text, mediaUrls: [], media, parentId: null, postId: null, author: account, extra: options });
        for (const upload of media) upload.attachedTo = item.id;
        if (typeof key === 'string') store.idempotency.set(`${account}|${key}`, item.id);
        return { body: statusJson(store, item) };
      },
    },
    {
      // "Delete a status" (https://docs.joinmastodon.org/methods/statuses/#delete): write:statuses (or write);
      // someone else's status is 404 "Record not found"; answers the deleted Status with its source `text`.
      method: 'DELETE',
      url: '/api/v1/statuses/:id',
      operation: 'delete_comment',
      handle: (ctx) => {
        const status = ownComment(ctx, 'mastodon', ctx.params.id, MASTODON_MODERATION_REFUSALS);
        ctx.store.remove(status);
        return { body: { ...statusJson(ctx.store, status), text: status.text } };
      },
    },
    {
      // "View a single status" (https://docs.joinmastodon.org/methods/statuses/#get): read:statuses; a Status with
      // replies_count, reblogs_count, favourites_count; 404 "Record not found" for an unknown id.
      method: 'GET',
      url: '/api/v1/statuses/:id',
      operation: 'metrics',
      handle: ({ store, params }) => {
        const status = store.find('mastodon', params.id);
        if (!status) throw new PlatformRefusal(404, undefined, 'Record not found');
        return { body: statusJson(store, status) };
      },
    },
    {
      method: 'GET',
      url: '/api/v1/statuses/:id/context',
      operation: 'list_comments',
      handle: ({ store, params }) => {
        existing(store, 'mastodon', params.id);
        return { body: { ancestors: [], descendants: store.commentsUnder('mastodon', params.id).map((status) => statusJson(store, status)) } };
      },
    },
    {
      method: 'GET',
      url: '/api/v1/accounts/verify_credentials',
      operation: 'lookup',
      // A CredentialAccount (https://docs.joinmastodon.org/entities/Account/#CredentialAccount): acct is the username for a local account.
      handle: ({ identity, store }) => {
        const { platformAccountId, handle, displayName } = identity!;
        // followers_count, following_count, statuses_count: every Account has them (https://docs.joinmastodon.org/entities/Account/#followers_count).
        const counts = { followers_count: followerCount(store, identity!), following_count: 42, statuses_count: store.postsOf('mastodon', identity!.key).length };
        return { body: { id: platformAccountId, username: handle, acct: handle, display_name: displayName, url: `${INSTANCE}/@${handle}`, ...counts } };
      },
    },
    {
      method: 'GET',
      url: '/api/v1/accounts/:id/statuses',
      operation: 'lookup',
      // "Get account's statuses" (https://docs.joinmastodon.org/methods/accounts/#statuses): newest first, limit (default 20,
      // at most 40), max_id (older than that id), exclude_replies; the next page's link in the Link header.
      handle: ({ store, params, query, baseUrl }) => {
        const owner = store.auth.byPlatformId('mastodon', params.id);
        if (!owner) throw new PlatformRefusal(404, undefined, 'Record not found');
        const limit = Math.min(Math.max(Number(query.limit ?? 20) || 20, 1), 40);
        const maxId = query.max_id === undefined ? null : BigInt(query.max_id);
        const statuses = store
          .postsOf('mastodon', owner.key)
          .filter((item) => (maxId === null || BigInt(item.id) < maxId) && (query.exclude_replies !== 'true' || item.parentId === null))
          .slice(0, limit);
        const last = statuses[statuses.length - 1];
        const link = last && statuses.length === limit ? { link: `<${baseUrl}/api/v1/accounts/${params.id}/statuses?limit=${limit}&max_id=${last.id}>; rel="next"` } : undefined;
        return { body: statuses.map((status) => statusJson(store, status)), headers: link };
      },
    },
  ],
};
