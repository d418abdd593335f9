import type {
  AccountAnalyticsView,
  AccountView,
  CalendarDay,
  PostingScheduleView,
  QueueSlotView,
  ItemMetrics,
  PostMetricsView,
  TopPostsView,
  BoardsReply,
  BulkImportResponse,
  CommentListItem,
  CommentThread,
  ConnectedAccountsReply,
  ConnectLinkCreated,
  CreatePostResponse,
  PostDetail,
  MeView,
  PostListItem,
  PostRecordedResponse,
  ReplayWebhookReply,
  StartConnectReply,
  TestWebhookReply,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from '@app/contracts';

/**
 * An example of each operation: its request body (Swagger UI's "Try it out" starts from it) and
 * each answer with a body, by status. Typed with the contract's own types, so an example cannot
 * drift from what the service answers without failing the type check; test/docs checks each one
 * against its schema and sends the create-post request to a running stack.
 */
export interface OperationExamples {
  request?: unknown;
  responses: Record<string, unknown>;
  /** Examples of media types other than JSON, by `request` or status, then media type (a CSV upload, an NDJSON stream). */
  otherMedia?: Record<string, Record<string, unknown>>;
}

const POST_ID = '0f8c7a52-3c1e-4b7e-9a59-2d6f0e4b1c11';
const X_ACCOUNT = '5b1d2f0e-8a43-4f6c-b0d2-6a7e9c3f1a20';
const FACEBOOK_ACCOUNT = '9e4a6c1b-2d3f-4e5a-8b7c-0d1e2f3a4b5c';
const WEBHOOK_ID = 'whep_2b7e1c9d4f6a8e0b';
const CREATED_AT = '2026-05-04T09:30:00.000Z';

/** The demo accounts npm start connects: the create-post example publishes to them as it is. */
const ECHO = [
  { accountId: X_ACCOUNT, platform: 'x', account: '@demo' },
  { accountId: FACEBOOK_ACCOUNT, platform: 'facebook', account: '@demo_page' },
];

const PUBLISHED: CreatePostResponse = {
  post: { id: POST_ID, status: 'published', scheduledAt: null, platforms: ['x', 'facebook'] },
  accounts: ECHO,
  results: [
    { platform: 'x', accountId: X_ACCOUNT, accountLabel: '@demo', success: true, postId: '1790000000000000001', url: 'https://x.com/demo/status/1790000000000000001' },
    { platform: 'facebook', accountId: FACEBOOK_ACCOUNT, accountLabel: '@demo_page', success: true, postId: '104000000000001_200000000000001', url: 'https://www.facebook.com/104000000000001_200000000000001' },
  ],
  note: 'Published on all 2 accounts.',
};

/** A write recorded that the read model does not show yet (the 202 rule). */
const RECORDED: PostRecordedResponse = { post: { id: POST_ID }, note: `recorded; not readable yet: GET /api/v1/posts/${POST_ID} in a moment` };

const STILL_PUBLISHING: CreatePostResponse = { ...PUBLISHED, post: { ...PUBLISHED.post, status: 'publishing' }, results: [], note: `Publishing to 2 accounts; 0 done so far. GET /api/v1/posts/${POST_ID} shows the outcome.` };

const SCHEDULED: CreatePostResponse = { post: { ...PUBLISHED.post, status: 'scheduled', scheduledAt: '2030-01-01T09:00:00.000Z' }, accounts: ECHO, results: [], note: 'Scheduled for 2030-01-01T09:00:00.000Z on 2 accounts.' };

const LIST_ITEM: PostListItem = {
  id: POST_ID,
  content: 'Hello from the API',
  platforms: ['x', 'facebook'],
  status: 'published',
  scheduledAt: null,
  publishedAt: '2026-05-04T09:30:02.000Z',
  results: PUBLISHED.results,
  errorMessage: null,
  createdAt: CREATED_AT,
  metrics: { likes: 54, comments: 9, shares: 7, impressions: 2480 },
};

const X_METRICS: ItemMetrics = { impressions: 1830, reach: null, likes: 41, comments: 6, shares: 5, saves: 2, clicks: null, videoViews: null };
const FACEBOOK_METRICS: ItemMetrics = { impressions: 650, reach: 540, likes: 13, comments: 3, shares: 2, saves: null, clicks: 17, videoViews: null };

const POST_METRICS: PostMetricsView = {
  postId: POST_ID,
  summary: { likes: 54, comments: 9, shares: 7, impressions: 2480 },
  accounts: [
    {
      accountId: FACEBOOK_ACCOUNT,
      platform: 'facebook',
      platformPostId: '104000000000001_200000000000001',
      publishedAt: '2026-05-04T09:30:02.000Z',
      metrics: FACEBOOK_METRICS,
      collectedAt: '2026-05-04T15:30:00.000Z',
      error: null,
      history: [
        { observedAt: '2026-05-04T09:35:00.000Z', metrics: { ...FACEBOOK_METRICS, impressions: 120, reach: 110, likes: 2, comments: 0, shares: 0, clicks: 3 } },
        { observedAt: '2026-05-04T15:30:00.000Z', metrics: FACEBOOK_METRICS },
      ],
    },
    {
      accountId: X_ACCOUNT,
      platform: 'x',
      platformPostId: '1790000000000000001',
      publishedAt: '2026-05-04T09:30:02.000Z',
      metrics: X_METRICS,
      collectedAt: '2026-05-04T15:30:00.000Z',
      error: null,
      history: [
        { observedAt: '2026-05-04T09:35:00.000Z', metrics: { ...X_METRICS, impressions: 300, likes: 8, comments: 1, shares: 1, saves: 0 } },
        { observedAt: '2026-05-04T15:30:00.000Z', metrics: X_METRICS },
      ],
    },
  ],
};

const CHART_EXAMPLE = [
  '<svg xmlns="http://www.w3.org/2000/svg" width="720" height="360" viewBox="0 0 720 360" role="img" aria-labelledby="chart-title chart-desc" font-family="sans-serif" font-size="12">',
  `<title id="chart-title">likes of post ${POST_ID}</title>`,
  '<desc id="chart-desc">x 1790000000000000001: 8 at 2026-05-04T09:35:00.000Z; 41 at 2026-05-04T15:30:00.000Z.</desc>',
  '…',
  '</svg>',
].join('\n');

const DETAIL: PostDetail = { ...LIST_ITEM, accounts: ECHO, mediaUrls: [], firstComments: [], version: 3 };

const ACCOUNT: AccountView = {
  id: X_ACCOUNT,
  platform: 'x',
  account: '@demo',
  displayName: 'Demo',
  status: 'connected',
  statusReason: null,
  statusSince: CREATED_AT,
  platformAccountId: '1790000000000000000',
  instanceUrl: null,
  tokenExpiresAt: '2026-05-04T11:30:00.000Z',
  scopes: ['tweet.read', 'tweet.write', 'users.read', 'offline.access'],
  createdAt: CREATED_AT,
};

const COMMENT: CommentListItem = {
  platformCommentId: '104000000000001_200000000000001_300000000000001',
  platform: 'facebook',
  author: 'Sam Lee',
  text: 'Where can I buy this?',
  postId: '3f6c0a52-8d7e-4b1f-9a2c-5e4d3c2b1a09',
  accountId: '5b2d9e71-3c4a-4f8b-a6d1-0e9f8c7b6a54',
  sentiment: 'neutral',
  tags: ['purchase_intent', 'question'],
  replied: false,
  postTitle: 'Hello from the API',
  url: 'https://www.facebook.com/104000000000001_200000000000001?comment_id=300000000000001',
  createdAt: CREATED_AT,
  parentCommentId: null,
  hidden: false,
  canReply: true,
  canHide: true,
  canDelete: true,
};

const ENDPOINT: WebhookEndpointView = {
  id: WEBHOOK_ID,
  url: 'https://client.example/webhooks/social',
  events: ['post.published', 'post.failed', 'comment.received'],
  description: 'production receiver',
  enabled: true,
  disabledReason: null,
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
};

const WITH_SECRET: WebhookEndpointWithSecret = { ...ENDPOINT, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', previousSecretExpiresAt: null };

const DELIVERY: WebhookDeliveryView = {
  id: 'msg_2b7e1c9d4f6a8e0b1c2d',
  eventType: 'post.published',
  eventId: '7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  position: '1842',
  status: 'delivered',
  attempts: 1,
  responseStatus: 200,
  lastError: null,
  lastAttemptAt: '2026-05-04T09:30:03.000Z',
  nextAttemptAt: null,
  deliveredAt: '2026-05-04T09:30:03.000Z',
  createdAt: '2026-05-04T09:30:02.500Z',
};

const REVIEWER_KEY_ID = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';

const HELD: CreatePostResponse = {
  ...SCHEDULED,
  post: { ...SCHEDULED.post, approval: { state: 'approved', by: REVIEWER_KEY_ID, at: '2026-05-04T10:00:00.000Z', note: 'Good to go' } },
};

const REJECTED: CreatePostResponse = {
  ...SCHEDULED,
  post: { ...SCHEDULED.post, approval: { state: 'rejected', by: REVIEWER_KEY_ID, at: '2026-05-04T10:00:00.000Z', note: 'Not before the launch is announced' } },
  note: `${SCHEDULED.note} Rejected in review: it is not published unless edited and approved.`,
};

const BULK_IMPORTED: BulkImportResponse = {
  atomic: false,
  total: 2,
  created: 1,
  refused: 1,
  rows: [
    { row: 1, identity: '1:9f2c4a1e7b3d5f60', status: 'created', postId: POST_ID, replayed: false },
    { row: 2, identity: '2:03ab7c9e1d2f4b58', status: 'refused', error: { code: 'unknown_account', message: 'no account matches x:@ghost', column: 'accounts' } },
  ],
};

const WORKSPACE = { id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a', name: 'Acme social team', approvalRequired: true };

const MODERATE_REQUEST = { platform: 'facebook', commentId: COMMENT.platformCommentId };

const SCHEDULE: PostingScheduleView = {
  accountId: X_ACCOUNT,
  timezone: 'Europe/Berlin',
  slots: [
    { day: 'mon', time: '09:00' },
    { day: 'wed', time: '09:00' },
    { day: 'fri', time: '17:30' },
  ],
  updatedAt: CREATED_AT,
};

const QUEUE_SLOTS: QueueSlotView[] = [
  { slotAt: '2026-05-04T07:00:00.000Z', localTime: '2026-05-04T09:00:00.000+02:00', post: { id: POST_ID, status: 'scheduled', content: 'Hello from the queue' } },
  { slotAt: '2026-05-06T07:00:00.000Z', localTime: '2026-05-06T09:00:00.000+02:00', post: null },
];

const CALENDAR_DAYS: CalendarDay[] = [
  {
    date: '2026-05-04',
    posts: [{ id: POST_ID, status: 'scheduled', scheduledAt: '2026-05-04T07:00:00.000Z', publishedAt: null, content: 'Hello from the queue', accounts: [ECHO[0]] }],
    freeSlots: [],
  },
  { date: '2026-05-05', posts: [], freeSlots: [] },
  { date: '2026-05-06', posts: [], freeSlots: [{ accountId: X_ACCOUNT, slotAt: '2026-05-06T07:00:00.000Z' }] },
];

export const OPERATION_EXAMPLES: Record<string, OperationExamples> = {
  PostsController_create: {
    request: { content: 'Hello from the API', accounts: ['x:@demo', 'facebook:@demo_page'], publishNow: true },
    responses: { 201: PUBLISHED, 202: STILL_PUBLISHING },
  },
  PostsController_list: { responses: { 200: { posts: [LIST_ITEM], nextCursor: null } } },
  PostsController_publish: { responses: { 201: PUBLISHED, 202: STILL_PUBLISHING } },
  PostsController_retry: { responses: { 201: PUBLISHED, 202: STILL_PUBLISHING } },
  PostsController_get: { responses: { 200: { post: DETAIL } } },
  PostsController_edit: { request: { content: 'Hello from the API, edited', scheduledAt: '2030-01-01T09:00:00Z' }, responses: { 200: SCHEDULED, 202: RECORDED } },
  PostsController_delete: { responses: {} },
  PostsController_approve: { request: { note: 'Good to go' }, responses: { 200: HELD, 202: RECORDED } },
  PostsController_reject: { request: { note: 'Not before the launch is announced' }, responses: { 200: REJECTED, 202: RECORDED } },
  BulkImportController_import: {
    request: {
      posts: [
        { content: 'Launch day', accounts: ['x:@demo', 'facebook:@demo_page'], scheduledAt: '2030-01-01T09:00:00Z' },
        { content: 'Follow-up', accounts: ['x:@ghost'], scheduledAt: '2030-01-02T09:00:00Z' },
      ],
      atomic: false,
    },
    responses: { 200: BULK_IMPORTED },
    otherMedia: {
      request: { 'multipart/form-data': { atomic: 'false', file: 'content,accounts,scheduledAt,content_x\nLaunch day,x:@demo | facebook:@demo_page,2030-01-01T09:00:00Z,Launch day on X\nFollow-up,x:@ghost,2030-01-02T09:00:00Z,\n' } },
      200: { 'application/x-ndjson': `${BULK_IMPORTED.rows.map((row) => JSON.stringify(row)).join('\n')}\n${JSON.stringify({ summary: { atomic: false, total: 2, created: 1, refused: 1 } })}\n` },
    },
  },
  WorkspaceController_get: { responses: { 200: WORKSPACE } },
  WorkspaceController_update: { request: { approvalRequired: true }, responses: { 200: WORKSPACE } },
  AccountsController_list: { responses: { 200: { accounts: [ACCOUNT] } } },
  QueueController_setSchedule: { request: { timezone: SCHEDULE.timezone, slots: [{ day: 'monday', time: '09:00' }, { day: 'wed', time: '09:00' }, { day: 'fri', time: '17:30' }] }, responses: { 200: { schedule: SCHEDULE } } },
  QueueController_getSchedule: { responses: { 200: { schedule: SCHEDULE } } },
  QueueController_list: { responses: { 200: { accountId: X_ACCOUNT, timezone: SCHEDULE.timezone, slots: QUEUE_SLOTS } } },
  CalendarController_calendar: { responses: { 200: { tz: 'Europe/Berlin', days: CALENDAR_DAYS, truncated: false } } },
  AccountsController_connect: {
    request: { platform: 'bluesky', handle: 'demo.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop' },
    responses: { 201: { accounts: [{ ...ACCOUNT, platform: 'bluesky', account: '@demo.bsky.social', platformAccountId: 'did:plc:ewvi7nxzyoun6zhxrhs64oiz', instanceUrl: 'https://bsky.social', scopes: [] }] } },
  },
  AccountsController_start: {
    request: { platform: 'x', redirectUri: 'http://localhost:5173/connected' },
    responses: {
      200: {
        authorizationUrl: 'https://x.com/i/oauth2/authorize?response_type=code&client_id=…&redirect_uri=…&scope=tweet.read%20tweet.write%20users.read%20offline.access&state=…&code_challenge=…&code_challenge_method=S256',
        state: 'c2lnbmVkLXN0YXRl.aGVsbG8',
        verifier: 'kq2H7fX0b9yV4tNw1LmR8sZc3pQe6uJd5aGiT0oYhBk',
        expiresAt: '2026-05-04T09:40:00.000Z',
      } satisfies StartConnectReply,
    },
  },
  AccountsController_callback: { responses: {} },
  AccountsController_complete: {
    request: { connectionId: '0c9b8a7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d', verifier: 'kq2H7fX0b9yV4tNw1LmR8sZc3pQe6uJd5aGiT0oYhBk' },
    responses: { 200: { accounts: [ACCOUNT] } satisfies ConnectedAccountsReply },
  },
  ConnectLinksController_create: {
    request: { redirectUri: 'https://app.example.com/social/connected', platforms: ['x', 'mastodon'], expiresInSeconds: 3600, brand: { name: 'Acme', logoUrl: 'https://app.example.com/logo.png', accentColor: '#0b5fff' } },
    responses: {
      201: {
        id: '4e7d2c1b-9a8f-4e6d-b5c4-3a2b1c0d9e8f',
        url: 'https://api.example.com/connect/4e7d2c1b-9a8f-4e6d-b5c4-3a2b1c0d9e8f.q1Zt0lY2x3bWZ3nWm9sC0hVv4bQ7aYk8eR6uJ5iN2oM',
        expiresAt: '2026-05-04T10:30:00.000Z',
      } satisfies ConnectLinkCreated,
    },
  },
  ConnectPageController_start: { request: { platform: 'mastodon', instanceUrl: 'https://mastodon.social' }, responses: {} },
  ConnectPageController_appPassword: { request: { handle: 'demo.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop' }, responses: {} },
  McpController_handle: {
    request: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_accounts', arguments: {} } },
    responses: {
      200: {
        jsonrpc: '2.0',
        id: 2,
        result: {
          content: [{ type: 'text', text: '{"accounts":[]}' }],
          structuredContent: { accounts: [] },
        },
      },
    },
  },
  MeController_me: {
    responses: {
      200: {
        workspace: { id: '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a', name: 'Acme social team' },
        key: { id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', scopes: ['read', 'write', 'publish'] },
        rateLimits: { general: { limit: 600, windowSeconds: 60, remaining: 598, resetSeconds: 1 } },
      } satisfies MeView,
    },
  },
  AccountsController_boards: {
    responses: { 200: { boards: [{ id: '549755885175', name: 'Product launches', description: null, privacy: 'PUBLIC' }] } satisfies BoardsReply },
  },
  AccountsController_disconnect: { responses: { 200: { ...ACCOUNT, status: 'disconnected', statusReason: 'disconnected_by_workspace', tokenExpiresAt: null } } },
  CommentsController_list: { responses: { 200: { comments: [COMMENT], nextCursor: 'eyJjIjoiMjAyNi0wNS0wNFQwOTozMDowMC4wMDBaIn0' } } },
  CommentsController_reply: {
    request: { ...MODERATE_REQUEST, message: 'Thanks! It is in our shop: https://shop.example/p/1' },
    responses: { 200: { success: true, repliedAs: '@demo_page', result: { id: '104000000000001_200000000000001_300000000000002' } } },
  },
  CommentsController_replies: {
    responses: {
      200: {
        replies: [
          { kind: 'comment', ...COMMENT },
          {
            kind: 'reply',
            replyId: '104000000000001_200000000000001_300000000000002',
            platform: 'facebook',
            parentCommentId: COMMENT.platformCommentId,
            accountId: FACEBOOK_ACCOUNT,
            repliedAs: '@demo_page',
            text: 'Thanks! It is in our shop: https://shop.example/p/1',
            createdAt: '2026-05-04T09:35:00.000Z',
            canDelete: true,
          },
        ],
      } satisfies CommentThread,
    },
  },
  CommentsController_hide: { request: MODERATE_REQUEST, responses: { 200: { success: true, platformCommentId: COMMENT.platformCommentId, hidden: true } } },
  CommentsController_unhide: { request: MODERATE_REQUEST, responses: { 200: { success: true, platformCommentId: COMMENT.platformCommentId, hidden: false } } },
  CommentsController_deleteReply: { responses: {} },
  MetaWebhookController_verify: { responses: { 200: '1158201444' } },
  MetaWebhookController_receive: {
    request: {
      object: 'page',
      entry: [
        {
          id: '104000000000001',
          time: 1777887000,
          changes: [
            {
              field: 'feed',
              value: {
                item: 'comment',
                verb: 'add',
                post_id: '104000000000001_200000000000001',
                comment_id: '200000000000001_300000000000001',
                parent_id: '104000000000001_200000000000001',
                from: { id: '6000000000001', name: 'Sam Lee' },
                message: 'Where can I buy this?',
                created_time: 1777887000,
              },
            },
          ],
        },
      ],
    },
    responses: { 200: { received: 1 } },
  },
  WebhooksController_create: { request: { url: ENDPOINT.url, events: ENDPOINT.events, description: ENDPOINT.description }, responses: { 201: WITH_SECRET } },
  WebhooksController_list: { responses: { 200: { webhooks: [ENDPOINT] } } },
  WebhooksController_get: { responses: { 200: ENDPOINT } },
  WebhooksController_update: { request: { enabled: false }, responses: { 200: { ...ENDPOINT, enabled: false, disabledReason: 'client', updatedAt: '2026-05-05T08:00:00.000Z' } } },
  WebhooksController_delete: { responses: {} },
  WebhooksController_rotate: { responses: { 200: { ...WITH_SECRET, secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD', previousSecretExpiresAt: '2026-05-06T08:00:00.000Z' } } },
  WebhooksController_test: { responses: { 202: { deliveryId: 'msg_9f8e7d6c5b4a3f2e1d0c' } satisfies TestWebhookReply } },
  WebhooksController_deliveryLog: { responses: { 200: { deliveries: [DELIVERY], nextCursor: null } } },
  WebhooksController_redeliver: { responses: {} },
  WebhooksController_replay: { request: { since: '2026-05-04T00:00:00Z' }, responses: { 202: { queued: 12, alreadyDelivered: 3, lastPosition: '1842' } satisfies ReplayWebhookReply } },
  AnalyticsController_postMetrics: { responses: { 200: POST_METRICS } },
  AnalyticsController_postMetricsChart: { responses: { 200: CHART_EXAMPLE } },
  AnalyticsController_topPosts: {
    responses: {
      200: {
        sort: 'likes',
        items: [
          { postId: POST_ID, accountId: X_ACCOUNT, platform: 'x', platformPostId: '1790000000000000001', publishedAt: '2026-05-04T09:30:02.000Z', metrics: X_METRICS, collectedAt: '2026-05-04T15:30:00.000Z' },
          { postId: POST_ID, accountId: FACEBOOK_ACCOUNT, platform: 'facebook', platformPostId: '104000000000001_200000000000001', publishedAt: '2026-05-04T09:30:02.000Z', metrics: FACEBOOK_METRICS, collectedAt: '2026-05-04T15:30:00.000Z' },
        ],
      } satisfies TopPostsView,
    },
  },
  AnalyticsController_account: {
    responses: {
      200: {
        accountId: X_ACCOUNT,
        platform: 'x',
        followers: 1204,
        collectedAt: '2026-05-06T00:00:00.000Z',
        followersChange: 31,
        totals: { ...X_METRICS, posts: 1 },
        history: [
          { observedAt: '2026-05-04T00:00:00.000Z', followers: 1173 },
          { observedAt: '2026-05-05T00:00:00.000Z', followers: 1190 },
          { observedAt: '2026-05-06T00:00:00.000Z', followers: 1204 },
        ],
      } satisfies AccountAnalyticsView,
    },
  },
  AnalyticsController_followersChart: { responses: { 200: CHART_EXAMPLE.replace(`likes of post ${POST_ID}`, `followers of x account ${X_ACCOUNT}`) } },
  HealthController_live: { responses: { 200: { status: 'ok' } } },
  HealthController_ready: { responses: { 200: { status: 'ok' }, 503: { error: { code: 'service_unavailable', message: 'not ready: postgres, nats' } } } },
  MetricsController_metrics: {
    responses: {
      200: [
        '# HELP http_request_duration_seconds HTTP requests by route pattern, method and status code',
        '# TYPE http_request_duration_seconds histogram',
        'http_request_duration_seconds_count{method="POST",route="/api/v1/posts",status="201"} 1',
        '',
      ].join('\n'),
    },
  },
};
