import { COMMENT_SENTIMENTS, METRIC_NAMES, WEBHOOK_EVENT_TYPES, WEBHOOK_PAYLOAD_VERSION, WebhookEventType } from '@app/contracts';

/*
 * The OpenAPI `webhooks` section: one operation per event type the service POSTs
 * to client endpoints (libs/webhooks/src/webhook-events.ts derives them from the
 * stored events). Signed by Standard Webhooks: webhook-id, webhook-timestamp,
 * webhook-signature (https://www.standardwebhooks.com/).
 */

type JsonSchema = Record<string, unknown>;

const string = { type: 'string' };
const nullableString = { type: 'string', nullable: true };
const dateTime = { type: 'string', format: 'date-time' };
const object = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', required: Object.keys(properties), properties });

const resultEntry = {
  type: 'object',
  description: 'a result entry, as the posts API shows it',
  required: ['platform', 'accountId', 'accountLabel', 'success'],
  properties: {
    platform: string,
    accountId: string,
    accountLabel: string,
    success: { type: 'boolean' },
    postId: { ...string, description: "the platform's id of the item (success)" },
    url: { ...string, description: 'success' },
    error: object({ code: string, message: string, retryable: { type: 'boolean' } }),
  },
};
const sentimentSchema = { type: 'string', enum: [...COMMENT_SENTIMENTS] };
const accountRef = object({ accountId: string, platform: string, account: { ...string, description: 'the handle' } });
const postOutcome = object({
  postId: string,
  status: { type: 'string', enum: ['published', 'partial', 'failed'] },
  attempt: { type: 'integer', description: '0 for a scheduled post that expired' },
  publishedAt: { ...dateTime, nullable: true },
  errorMessage: nullableString,
  results: { type: 'array', items: resultEntry },
});
/**
 * Every comment event names its comment as the comments API does: platformCommentId with platform is
 * what POST /api/v1/comments/reply (and hide, unhide, the thread) take as commentId.
 */
const commentEvent = (properties: Record<string, JsonSchema>): JsonSchema =>
  object({
    platformCommentId: { ...string, description: "the platform's own comment id: pass it as commentId to reply, hide or unhide" },
    platform: string,
    postId: { ...string, description: 'the post it sits under (GET /api/v1/posts/{id})' },
    internalCommentId: { ...string, description: "the service's own id of the comment (stable per workspace, platform and platformCommentId); no endpoint takes it" },
    ...properties,
  });
/** post.failed may say why a post that never published failed: schedule_expired or approval_missed. */
const postFailure: JsonSchema = {
  ...postOutcome,
  properties: { ...(postOutcome.properties as Record<string, JsonSchema>), errorCode: { ...string, description: 'only when a scheduled post failed without publishing: schedule_expired (six hours late) or approval_missed (due while awaiting approval, or rejected)' } },
};
const approvalOf = (state: string) =>
  object({
    postId: string,
    approval: object({ state: { type: 'string', enum: [state] }, by: { ...string, description: 'the key id that asked for review (pending) or decided' }, at: dateTime, note: nullableString }),
  });
const accountOutcome = object({ postId: string, attempt: { type: 'integer' }, result: resultEntry });

const DATA: Record<WebhookEventType | 'webhook.test', { summary: string; data: JsonSchema }> = {
  'post.scheduled': { summary: 'A post was created with, or edited to, a scheduledAt', data: object({ postId: string, scheduledAt: dateTime, accounts: { type: 'array', items: accountRef } }) },
  'post.published': { summary: 'Every account of a publication succeeded', data: postOutcome },
  'post.partial': { summary: 'A publication ended with some accounts failed', data: postOutcome },
  'post.failed': { summary: 'A publication ended with every account failed, or a scheduled post expired or missed its approval', data: postFailure },
  'post.deleted': { summary: 'A draft or scheduled post was deleted', data: object({ postId: string, deletedAt: dateTime }) },
  'post.account.published': { summary: 'One account published the post', data: accountOutcome },
  'post.account.failed': { summary: 'One account failed to publish the post', data: accountOutcome },
  'post.approval_requested': { summary: 'A post was held for review (created or edited by a key without the approve scope while the workspace requires approval)', data: approvalOf('pending') },
  'post.approved': { summary: 'A reviewer approved a post held for review', data: approvalOf('approved') },
  'post.rejected': { summary: 'A reviewer rejected a post held for review', data: approvalOf('rejected') },
  'account.connected': { summary: 'An account was connected (or connected again)', data: object({ accountId: string, platform: string, account: string, displayName: string, reconnected: { type: 'boolean' } }) },
  'account.reauth_required': { summary: "The platform refused an account's credential: connect it again", data: object({ accountId: string, platform: string, account: string, reason: string, message: string }) },
  'account.disconnected': { summary: 'An account was disconnected', data: object({ accountId: string, platform: string, account: string, revoked: { type: 'boolean' } }) },
  'comment.received': {
    summary: 'A new comment under a published post, classified',
    data: commentEvent({
      accountId: { ...string, description: 'the account the post was published as: the one that replies when the reply names no accountId' },
      parentCommentId: { ...nullableString, description: 'the platformCommentId it replies to; null when it answers the post' },
      author: string,
      text: string,
      url: nullableString,
      commentedAt: dateTime,
      sentiment: sentimentSchema,
      tags: { type: 'array', items: string },
    }),
  },
  'comment.replied': {
    summary: 'The workspace replied to a comment',
    data: commentEvent({ accountId: { ...string, description: 'the account that replied' }, repliedAs: string, replyId: string, message: string, repliedAt: dateTime }),
  },
  'comment.hidden': { summary: 'The workspace hid a comment on its platform', data: commentEvent({ accountId: { ...string, description: 'the account that hid it' }, hiddenAt: dateTime }) },
  'comment.unhidden': { summary: 'The workspace showed a hidden comment again', data: commentEvent({ accountId: { ...string, description: 'the account that showed it' }, unhiddenAt: dateTime }) },
  'comment.reply_deleted': {
    summary: "One of the workspace's replies to a comment was deleted from the platform",
    data: commentEvent({ accountId: { ...string, description: 'the account that wrote the reply' }, replyId: string, deletedAt: dateTime }),
  },
  'comment.reclassified': {
    summary: 'The current classifier (npm run reclassify) read a stored comment differently: its sentiment and tags from now on',
    data: commentEvent({
      accountId: { ...string, description: 'the account the post was published as' },
      sentiment: sentimentSchema,
      tags: { type: 'array', items: string },
      classifierVersion: string,
      reclassifiedAt: dateTime,
    }),
  },
  'post.metrics_updated': {
    summary: "A published item's numbers moved (analytics collection); opt-in, chatty: only endpoints whose events name it get it",
    data: object({
      postId: string,
      accountId: string,
      platform: string,
      platformPostId: { ...string, description: "the platform's id of the item" },
      metrics: {
        type: 'object',
        required: [...METRIC_NAMES],
        properties: Object.fromEntries(METRIC_NAMES.map((name) => [name, { type: 'integer', nullable: true, description: 'null where the platform does not give it' }])),
      },
      changed: { type: 'array', items: { type: 'string', enum: [...METRIC_NAMES] }, description: 'the metrics that moved since the previous collection' },
      observedAt: dateTime,
    }),
  },
  'webhook.disabled': {
    summary: 'Another endpoint of the workspace was disabled (sent to every enabled endpoint)',
    data: object({ endpointId: string, url: string, reason: { type: 'string', enum: ['gone', 'failing'] }, disabledAt: dateTime }),
  },
  'webhook.test': { summary: 'POST /api/v1/webhooks/:id/test', data: object({ endpointId: string, url: string }) },
};

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', in: 'header', required: true, schema: string, description: 'the same on every retry, redelivery and replay of this event to this endpoint: deduplicate on it' },
  { name: 'webhook-timestamp', in: 'header', required: true, schema: { type: 'integer' }, description: 'seconds since the epoch, when this attempt was sent' },
  { name: 'webhook-signature', in: 'header', required: true, schema: string, description: 'v1,<base64 HMAC-SHA256 of `${webhook-id}.${webhook-timestamp}.${body}`>, space-separated (two for 24 hours after a rotation)' },
];

/** The `webhooks` section: what the service sends client endpoints, one entry per event type. */
export function webhookOperations(): Record<string, unknown> {
  return Object.fromEntries(
    [...WEBHOOK_EVENT_TYPES, 'webhook.test' as const].map((type) => [
      type,
      {
        post: {
          summary: DATA[type].summary,
          tags: ['webhooks'],
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: object({
                  type: { type: 'string', enum: [type] },
                  timestamp: { ...dateTime, description: 'when the event happened' },
                  version: { type: 'integer', enum: [WEBHOOK_PAYLOAD_VERSION] },
                  eventId: { ...string, description: 'the stored event' },
                  position: { ...nullableString, description: 'its position in the event store, for replay afterPosition (null for webhook.* notices)' },
                  workspaceId: string,
                  data: DATA[type].data,
                }),
              },
            },
          },
          responses: {
            '2XX': { description: 'delivered' },
            '410': { description: 'the endpoint is gone: it is disabled, nothing more is sent' },
            default: { description: 'a failure: retried with exponential backoff and jitter for about three days' },
          },
        },
      },
    ]),
  );
}
