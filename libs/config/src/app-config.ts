import { randomBytes } from 'node:crypto';
import { Platform, PLATFORMS } from '@app/contracts';
import { MediaHostAllowList } from '@app/media';
import { CollectionSchedule, DEFAULT_COLLECTION_SCHEDULE, parseScheduleSteps } from './analytics-schedule';

export type EventStoreKind = 'postgres' | 'eventstoredb';

/** The numbers of the connectors' retry policy a deployment (or a test) may override; libs/platforms owns the policy. */
export interface PlatformRetrySettings {
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  maxRateLimitWaitMs?: number;
  requestTimeoutMs?: number;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Comment polling per platform: a minute, five on X (recent search allows few calls per 15 minutes). */
/** The platforms we register an app of our own with: Instagram signs in through Facebook Login, with the Facebook app. */
export const PLATFORMS_WITH_OWN_APP: readonly Platform[] = PLATFORMS.filter((platform) => platform !== 'instagram');

const DEFAULT_COMMENTS_POLL_INTERVAL_MS: Record<Platform, number> = {
  ...(Object.fromEntries(PLATFORMS.map((p) => [p, 60_000])) as Record<Platform, number>),
  x: 5 * 60_000,
};

/**
 * Everything a process reads from its environment, read once and checked at
 * start-up. Apps receive it through AppConfigModule; tests build one directly.
 */
export class AppConfig {
  databaseUrl = 'postgres://postgres@127.0.0.1:5432/postgres';
  databasePoolSize = 10;
  natsUrl = 'nats://127.0.0.1:4222';
  /** Prefix for every subject and stream name; empty in production, unique per test run. */
  natsNamespace = '';
  /** JetStream's duplicate window for the event stream: the relay's resends inside it are dropped. */
  natsDuplicateWindowMs = 10 * 60 * 1000;
  eventStore: EventStoreKind = 'postgres';
  eventStoreUrl: string | null = null;
  port = 3000;
  host = '0.0.0.0';
  /** 32-byte key that encrypts platform credentials at rest (a random one unless configured: tests only). */
  tokenEncryptionKey: Buffer = randomBytes(32);
  /** How long a command request waits for its handler before answering 503. */
  commandTimeoutMs = 10_000;
  /** How long the gateway waits for the read model to show a write before answering anyway. */
  projectionWaitMs = 5_000;
  /** How long a publish request waits for every account's outcome before answering 202 (publishing). */
  publishWaitMs = 8_000;
  /**
   * The gateway's HTTP timeouts (node's http server, through Fastify). A request whose line and
   * headers have not all arrived within httpHeadersTimeoutMs, or whose headers and body have not
   * within httpRequestTimeoutMs, is answered 408 request_timeout and its connection closed: a
   * client trickling bytes cannot hold a connection (and its memory) for ever. A connection
   * silent for httpConnectionTimeoutMs is closed; it must outlast the longest answer the gateway
   * takes to give (COMMAND_TIMEOUT_MS + PUBLISH_WAIT_MS), since the client is silent meanwhile.
   */
  httpHeadersTimeoutMs = 10_000;
  httpRequestTimeoutMs = 30_000;
  httpConnectionTimeoutMs = 120_000;
  /** How many events each feed follower (the relay, each projection) takes from the feed at once. */
  feedBatchSize = 500;
  /**
   * PLATFORM_SANDBOX_URL: every platform under one sandbox, each at its own prefix. Plain values
   * only: libs/platforms turns them into endpoints (platformClientOptions), so configuration
   * loads no connector.
   */
  platformSandboxUrl: string | null = null;
  /** PLATFORM_BASE_URL_<PLATFORM> (e.g. PLATFORM_BASE_URL_MASTODON): one platform elsewhere, over the sandbox or the real host. */
  platformBaseUrls: Partial<Record<Platform, string>> = {};
  /** Overrides of the connectors' retry policy (tests shorten the delays). */
  platformRetry: PlatformRetrySettings = {};
  /**
   * MEDIA_ALLOWED_HOSTS (comma-separated): hosts, host:port pairs and CIDR ranges the media
   * fetcher may reach although they are loopback or private (the local sandbox, an internal
   * CDN); it also fetches plain http: from them. Everything else must be public https.
   */
  mediaAllowedHosts: string[] = [];
  /** X posts and replies a workspace may make per calendar month (UTC): set it to your X API plan. */
  xPoolMonthlyPosts = 1_500;
  /** JetStream ack wait of the publisher's consumer; the publisher reports progress while it works. */
  publisherAckWaitMs = 30_000;
  /** Deliveries of one PublishRequested before the publisher closes its remaining accounts as failed. */
  publisherMaxDeliver = 5;
  /** How often the scheduler looks for due scheduled posts and stalled publications. */
  schedulerIntervalMs = 1_000;
  /**
   * A publication still running this long after it was asked for is closed:
   * accounts without an outcome fail (see abandonedAccountError). Longer than every
   * redelivery of the publisher's consumer put together.
   */
  publishAbandonAfterMs = 15 * 60_000;
  /**
   * How often the comments service polls each platform for comments under the
   * published items. Per platform, inside its read limits (X's recent search is
   * the tightest); COMMENTS_POLL_INTERVAL_MS sets one value for all of them.
   * A platform answering rate_limited is left alone longer (doubling, up to an hour).
   */
  commentsPollIntervalMs: Record<Platform, number> = { ...DEFAULT_COMMENTS_POLL_INTERVAL_MS };
  /** Meta app secret: verifies X-Hub-Signature-256 on Meta's webhooks; without it every webhook call is refused. */
  metaAppSecret: string | null = null;
  /** The verify token Meta's webhook subscription handshake must present (hub.verify_token). */
  metaWebhookVerifyToken: string | null = null;
  /** Requests per minute per API key, every authenticated route (0 switches the limit off). */
  rateLimitGeneralPerMinute = 600;
  /** Replies per minute per API key (spec, Limits: 20), on top of the general limit (0: off). */
  rateLimitRepliesPerMinute = 20;
  /**
   * Our app on each platform, for signing accounts in: <PLATFORM>_CLIENT_ID and
   * <PLATFORM>_CLIENT_SECRET (e.g. X_CLIENT_ID, TIKTOK_CLIENT_ID = TikTok's client key).
   * Mastodon needs none: the app is registered on each instance at first use. Instagram signs in
   * through Facebook Login with the Facebook app (FACEBOOK_CLIENT_ID): no Instagram app is read.
   */
  platformApps: Partial<Record<Platform, { clientId: string; clientSecret: string | null }>> = {};
  /** The public url of GET /api/v1/accounts/connect/callback, as registered with every platform (OAUTH_CALLBACK_URL). */
  oauthCallbackUrl: string | null = null;
  /** The LinkedIn API version sent in LinkedIn-Version (LINKEDIN_API_VERSION); empty: the connector's current default. */
  linkedInApiVersion: string | null = null;
  /** How long a sign-in started with POST /api/v1/accounts/connect may take. */
  connectStateTtlMs = 10 * 60_000;
  /** How long what a sign-in gave waits, after the callback, for POST /api/v1/accounts/connect/complete. */
  connectionTtlMs = 10 * 60_000;
  /**
   * OAUTH_REDIRECT_ALLOWED_HOSTS (comma-separated): hosts, host:port pairs and CIDR ranges a
   * sign-in's redirectUri may name although they are loopback or private (localhost), and over
   * plain http: development only (npm start allows localhost). Every other redirectUri is public https.
   */
  oauthRedirectAllowedHosts: string[] = [];
  /** Tokens ending sooner than this are renewed before use, and by the accounts service's pass. */
  tokenRefreshAheadMs = 10 * 60_000;
  /** How often the accounts service renews tokens that end soon (ACCOUNTS_REFRESH_INTERVAL_MS). */
  accountsRefreshIntervalMs = 60_000;
  /**
   * WEBHOOK_ALLOWED_HOSTS (comma-separated): hosts, host:port pairs and CIDR ranges webhook
   * endpoints may use although they are loopback or private, and over plain http (a local
   * receiver, tests). Every other endpoint must be public https.
   */
  webhookAllowedHosts: string[] = [];
  /** One webhook attempt (connect, send, status and headers) gives up after this (WEBHOOK_TIMEOUT_MS); Standard Webhooks suggests 15–30 s. */
  webhookTimeoutMs = 15_000;
  /** Bytes of an endpoint's answer read before the connection is dropped. */
  webhookMaxResponseBytes = 16 * 1024;
  /** How often the webhooks service looks for due deliveries (new events start one at once). */
  webhookDispatchIntervalMs = 1_000;
  /**
   * While events keep coming, the webhooks service reads the feed at most once per this
   * (WEBHOOK_FEED_READ_INTERVAL_MS): deliveries wait up to this long, and batches gather.
   */
  webhookFeedReadIntervalMs = 100;
  /** Endpoints one webhooks replica delivers to at once (each one delivery at a time). */
  webhookMaxEndpointsInFlight = 64;
  /**
   * When the analytics service collects a published item's numbers (ANALYTICS_FIRST_COLLECTION_MS,
   * ANALYTICS_SCHEDULE): the first time this long after it went live, then at a pace that slows
   * with its age; see analytics-schedule.ts for the default.
   */
  analyticsSchedule: CollectionSchedule = DEFAULT_COLLECTION_SCHEDULE;
  /** How often the analytics service looks for items and accounts due a collection (ANALYTICS_TICK_MS). */
  analyticsTickMs = 15_000;
  /** How often each connected account's follower count is collected (ANALYTICS_FOLLOWERS_INTERVAL_MS). */
  analyticsFollowersIntervalMs = 24 * 60 * 60_000;
  /** Items collected per pass at most (ANALYTICS_BATCH_SIZE): the rest stay due for the next pass. */
  analyticsBatchSize = 1_000;
  /** Accounts collected at once (ANALYTICS_ACCOUNTS_IN_FLIGHT); each account's own calls go one at a time. */
  analyticsAccountsInFlight = 4;
  /** The time every decision is taken at; tests move it (the six-hour rule) without sleeping. */
  now: () => Date = () => new Date();

  static fromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
    const config = new AppConfig();
    const errors: string[] = [];
    const int = (name: string, fallback: number): number => {
      const raw = env[name];
      if (raw === undefined || raw === '') return fallback;
      const value = Number(raw);
      if (!Number.isInteger(value) || value < 0) errors.push(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
      return value;
    };
    config.databaseUrl = env.DATABASE_URL || config.databaseUrl;
    config.databasePoolSize = int('DATABASE_POOL_SIZE', config.databasePoolSize);
    config.natsUrl = env.NATS_URL || config.natsUrl;
    config.natsNamespace = env.NATS_NAMESPACE ?? '';
    config.natsDuplicateWindowMs = int('NATS_DUPLICATE_WINDOW_MS', config.natsDuplicateWindowMs);
    const kind = env.EVENT_STORE || 'postgres';
    if (kind !== 'postgres' && kind !== 'eventstoredb') errors.push(`EVENT_STORE must be postgres or eventstoredb, got ${JSON.stringify(kind)}`);
    config.eventStore = kind as EventStoreKind;
    config.eventStoreUrl = env.EVENTSTORE_URL || null;
    if (config.eventStore === 'eventstoredb' && !config.eventStoreUrl) errors.push('EVENT_STORE=eventstoredb needs EVENTSTORE_URL');
    config.port = int('PORT', config.port);
    config.host = env.HOST || config.host;
    if (env.TOKEN_ENCRYPTION_KEY) {
      const key = Buffer.from(env.TOKEN_ENCRYPTION_KEY, 'base64');
      if (key.length !== 32) errors.push('TOKEN_ENCRYPTION_KEY must be 32 bytes, base64-encoded');
      config.tokenEncryptionKey = key;
    } else {
      // A random key would make stored credentials unreadable by the next process.
      errors.push('TOKEN_ENCRYPTION_KEY is required (32 bytes, base64); npm start and npm run admin supply a local one');
    }
    config.commandTimeoutMs = int('COMMAND_TIMEOUT_MS', config.commandTimeoutMs);
    config.projectionWaitMs = int('PROJECTION_WAIT_MS', config.projectionWaitMs);
    config.publishWaitMs = int('PUBLISH_WAIT_MS', config.publishWaitMs);
    config.feedBatchSize = int('FEED_BATCH_SIZE', config.feedBatchSize);
    config.httpHeadersTimeoutMs = int('HTTP_HEADERS_TIMEOUT_MS', config.httpHeadersTimeoutMs);
    config.httpRequestTimeoutMs = int('HTTP_REQUEST_TIMEOUT_MS', config.httpRequestTimeoutMs);
    config.httpConnectionTimeoutMs = int('HTTP_CONNECTION_TIMEOUT_MS', config.httpConnectionTimeoutMs);
    // node refuses headers timing out after the whole request (and 0 would switch a timeout off).
    if (config.httpHeadersTimeoutMs < 1 || config.httpHeadersTimeoutMs > config.httpRequestTimeoutMs) {
      errors.push(`HTTP_HEADERS_TIMEOUT_MS must be at least 1 and at most HTTP_REQUEST_TIMEOUT_MS (${config.httpRequestTimeoutMs}), got ${config.httpHeadersTimeoutMs}`);
    }
    if (config.httpConnectionTimeoutMs <= config.commandTimeoutMs + config.publishWaitMs) {
      errors.push(`HTTP_CONNECTION_TIMEOUT_MS must be longer than COMMAND_TIMEOUT_MS + PUBLISH_WAIT_MS (${config.commandTimeoutMs + config.publishWaitMs}): the client waits that long in silence`);
    }
    config.platformSandboxUrl = env.PLATFORM_SANDBOX_URL ? withoutTrailingSlash(env.PLATFORM_SANDBOX_URL) : null;
    for (const platform of PLATFORMS) {
      const baseUrl = env[`PLATFORM_BASE_URL_${platform.toUpperCase()}`];
      if (baseUrl) config.platformBaseUrls[platform] = withoutTrailingSlash(baseUrl);
    }
    config.mediaAllowedHosts = (env.MEDIA_ALLOWED_HOSTS ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
    try {
      // Parsed here only to refuse a malformed entry at start-up, not at the first post with media.
      new MediaHostAllowList(config.mediaAllowedHosts);
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
    config.webhookAllowedHosts = (env.WEBHOOK_ALLOWED_HOSTS ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
    try {
      new MediaHostAllowList(config.webhookAllowedHosts, 'WEBHOOK_ALLOWED_HOSTS');
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
    config.oauthRedirectAllowedHosts = (env.OAUTH_REDIRECT_ALLOWED_HOSTS ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
    try {
      new MediaHostAllowList(config.oauthRedirectAllowedHosts, 'OAUTH_REDIRECT_ALLOWED_HOSTS');
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
    config.webhookTimeoutMs = int('WEBHOOK_TIMEOUT_MS', config.webhookTimeoutMs);
    config.webhookDispatchIntervalMs = int('WEBHOOK_DISPATCH_INTERVAL_MS', config.webhookDispatchIntervalMs);
    config.webhookFeedReadIntervalMs = int('WEBHOOK_FEED_READ_INTERVAL_MS', config.webhookFeedReadIntervalMs);
    config.webhookMaxEndpointsInFlight = int('WEBHOOK_MAX_ENDPOINTS_IN_FLIGHT', config.webhookMaxEndpointsInFlight);
    config.xPoolMonthlyPosts = int('X_POOL_MONTHLY_POSTS', config.xPoolMonthlyPosts);
    config.publisherAckWaitMs = int('PUBLISHER_ACK_WAIT_MS', config.publisherAckWaitMs);
    config.publisherMaxDeliver = int('PUBLISHER_MAX_DELIVER', config.publisherMaxDeliver);
    config.schedulerIntervalMs = int('SCHEDULER_INTERVAL_MS', config.schedulerIntervalMs);
    config.publishAbandonAfterMs = int('PUBLISH_ABANDON_AFTER_MS', config.publishAbandonAfterMs);
    const pollEvery = int('COMMENTS_POLL_INTERVAL_MS', 0);
    if (pollEvery > 0) config.commentsPollIntervalMs = Object.fromEntries(PLATFORMS.map((p) => [p, pollEvery])) as Record<Platform, number>;
    config.metaAppSecret = env.META_APP_SECRET || null;
    config.metaWebhookVerifyToken = env.META_WEBHOOK_VERIFY_TOKEN || null;
    config.rateLimitGeneralPerMinute = int('RATE_LIMIT_GENERAL_PER_MINUTE', config.rateLimitGeneralPerMinute);
    config.rateLimitRepliesPerMinute = int('RATE_LIMIT_REPLIES_PER_MINUTE', config.rateLimitRepliesPerMinute);
    for (const platform of PLATFORMS_WITH_OWN_APP) {
      const clientId = env[`${platform.toUpperCase()}_CLIENT_ID`];
      if (clientId) config.platformApps[platform] = { clientId, clientSecret: env[`${platform.toUpperCase()}_CLIENT_SECRET`] || null };
    }
    config.oauthCallbackUrl = env.OAUTH_CALLBACK_URL || null;
    config.linkedInApiVersion = env.LINKEDIN_API_VERSION || null;
    config.accountsRefreshIntervalMs = int('ACCOUNTS_REFRESH_INTERVAL_MS', config.accountsRefreshIntervalMs);
    const firstAfterMs = int('ANALYTICS_FIRST_COLLECTION_MS', config.analyticsSchedule.firstAfterMs);
    try {
      const steps = env.ANALYTICS_SCHEDULE ? parseScheduleSteps(env.ANALYTICS_SCHEDULE) : config.analyticsSchedule.steps;
      config.analyticsSchedule = { firstAfterMs, steps };
    } catch (error) {
      errors.push(error instanceof Error ? error.message : String(error));
    }
    config.analyticsTickMs = int('ANALYTICS_TICK_MS', config.analyticsTickMs);
    config.analyticsFollowersIntervalMs = int('ANALYTICS_FOLLOWERS_INTERVAL_MS', config.analyticsFollowersIntervalMs);
    config.analyticsBatchSize = int('ANALYTICS_BATCH_SIZE', config.analyticsBatchSize);
    config.analyticsAccountsInFlight = Math.max(1, int('ANALYTICS_ACCOUNTS_IN_FLIGHT', config.analyticsAccountsInFlight));
    if (errors.length) throw new Error(`invalid configuration:\n  ${errors.join('\n  ')}`);
    return config;
  }

  with(overrides: Partial<AppConfig>): AppConfig {
    return Object.assign(Object.create(AppConfig.prototype) as AppConfig, this, overrides);
  }
}
