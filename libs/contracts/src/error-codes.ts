/**
 * Every error code the API answers with, its HTTP status and what it means.
 * One home for the catalogue: the exception filter, the README table and the
 * OpenAPI document all read it.
 */
export const ERROR_CODES = {
  invalid_body: { status: 400, description: 'The body is not JSON of the expected shape (a field has the wrong type).' },
  unknown_field: { status: 400, description: 'The body has a field the operation does not take, at any depth (details.field names its path, details.suggestion the closest field it takes, details.allowed all of them there); nothing was done.' },
  payload_too_large: { status: 413, description: 'The body is larger than the limit for its route (details.limitBytes).' },
  uri_too_long: { status: 414, description: 'The request target (path and query string) is longer than the limit (details.limitChars).' },
  headers_too_large: { status: 431, description: 'The request line and headers together are larger than the server accepts.' },
  malformed_request: { status: 400, description: 'The request is not valid HTTP/1.1 (request line, header syntax or framing); the connection is closed.' },
  request_timeout: { status: 408, description: 'The request headers or body did not arrive in time; the connection is closed.' },
  invalid_idempotency_key: { status: 400, description: 'The Idempotency-Key header is empty or longer than 255 characters.' },
  unsupported_media_type: { status: 415, description: 'The request body is not application/json (or is sent without that Content-Type) on an operation that takes a body.' },
  invalid_if_match: { status: 400, description: 'If-Match is not an ETag this API gave out (a quoted version number).' },
  nothing_to_edit: { status: 400, description: 'The edit names no field to change.' },
  invalid_workspace_settings: { status: 400, description: 'PATCH /api/v1/workspace names no setting to change.' },
  invalid_query: { status: 400, description: 'A query parameter has a value outside its rule (status, limit, ...), or a query or path parameter holds text storage cannot keep (NUL, a lone surrogate; details.field, details.in is path for a path parameter).' },
  unknown_query_parameter: { status: 400, description: 'The query string has a parameter the operation does not take (details.field, details.suggestion the closest one it takes, details.allowed all of them); nothing was done.' },
  content_required: { status: 400, description: 'Neither content nor mediaUrls was given.' },
  content_too_long: { status: 400, description: 'content is over 10,000 characters.' },
  accounts_required: { status: 400, description: 'Neither accounts (or accountIds) nor platforms was given, or they were empty.' },
  accounts_and_platforms: { status: 400, description: 'Both accounts (or accountIds) and platforms were given; send one of them.' },
  too_many_accounts: { status: 400, description: 'More than ten distinct accounts after duplicates are removed.' },
  unknown_account: { status: 400, description: 'An account reference names nothing this key can reach.' },
  account_disconnected: { status: 400, description: 'An account reference names a disconnected account.' },
  ambiguous_account: { status: 400, description: 'An account reference matches more than one account; candidates are listed.' },
  unknown_platform: { status: 400, description: 'A platforms entry is not a platform identifier this service knows.' },
  platform_not_connected: { status: 400, description: 'A platforms entry names a platform with no connected account.' },
  ambiguous_platform: { status: 400, description: 'A platforms entry matches several connected accounts; candidates are listed, send accounts instead.' },
  too_many_media_urls: { status: 400, description: 'More than ten mediaUrls.' },
  invalid_media_url: { status: 400, description: 'A mediaUrls entry is not an absolute https:// URL.' },
  alt_text_mismatch: { status: 400, description: 'altText does not pair with mediaUrls: it has another number of entries (or there are no mediaUrls).' },
  alt_text_too_long: { status: 400, description: 'An altText entry is over 1,000 characters.' },
  too_many_first_comments: { status: 400, description: 'More than five firstComments.' },
  first_comment_invalid: { status: 400, description: 'A firstComments entry is empty or over 2,200 characters.' },
  invalid_override_key: { status: 400, description: 'An overrides key names neither a platform nor an account the post targets (platform id, platform:@handle, account id), or two keys name the same one (details.override).' },
  override_not_publishable: { status: 400, description: 'What an override makes an account publish breaks a limit its platform checks before any call (text counted the platform\'s way, media required, media count, alt text length); details name the override, the account and the platform\'s reason.' },
  too_many_thread_parts: { status: 400, description: 'thread has more than 25 parts, or autoSplit makes an account\'s thread longer than that (details.accountId).' },
  thread_part_not_publishable: { status: 400, description: 'An account would have a thread part refused by its platform before any call (text counted the platform\'s way, media count, alt text; media on a platform where parts are comments); details.threadPart, details.accountId, details.platform, details.reason. A part breaking a create rule is refused with that rule\'s code and details.threadPart.' },
  platform_option_invalid: { status: 400, description: 'A platformOptions entry names no platform the post targets, an option its platform does not take, or a value outside the ones the platform documents (details.platform, details.option); or with its options an account\'s publication would break its platform\'s limits (details.reason).' },
  invalid_scheduled_at: { status: 400, description: 'scheduledAt is not a valid ISO 8601 datetime with a time zone.' },
  scheduled_at_in_past: { status: 400, description: 'scheduledAt is not in the future.' },
  scheduled_and_publish_now: { status: 400, description: 'scheduledAt and publishNow were both given; they are mutually exclusive.' },
  queue_and_scheduled_at: { status: 400, description: 'queue and scheduledAt were both given; they are mutually exclusive (queue picks the time).' },
  queue_and_publish_now: { status: 400, description: 'queue and publishNow were both given; they are mutually exclusive.' },
  queue_and_atomic: { status: 400, description: 'An atomic bulk import has a row with queue: queue slots are claimed one post at a time, so queued rows are imported without atomic (details.row); nothing was created.' },
  queue_schedule_missing: { status: 400, description: 'queue names an account without a posting schedule (or with no slots); set one with PUT /api/v1/accounts/:id/schedule (details.accountIds). Nothing was created.' },
  queue_full: { status: 409, description: 'No slot is free on every targeted account within the queue horizon of 90 days (details.horizonDays); nothing was created.' },
  invalid_time_zone: { status: 400, description: 'timezone (or tz) is not an IANA time zone name such as Europe/Berlin (fixed offsets like UTC+2 are refused: they ignore daylight saving).' },
  invalid_schedule_slot: { status: 400, description: 'A schedule slot has a day other than mon..sun (or monday..sunday) or a time other than HH:MM (24 h), or the schedule has more than 200 slots (details.slot: its index).' },
  range_too_long: { status: 400, description: 'from and to are further apart than 62 days (details.maxDays); ask for a shorter range.' },
  unauthenticated: { status: 401, description: 'The Authorization header is missing, malformed, or names no active key.' },
  insufficient_scope: { status: 403, description: 'The key lacks a scope the operation needs (publishNow needs publish as well as write).' },
  not_found: { status: 404, description: 'No such resource in this key\'s workspace.' },
  post_not_editable: { status: 409, description: 'Only a draft, or a scheduled post before its time, can be edited or deleted; a partial or failed post only in its overrides (details.fields: what else was given).' },
  account_already_published: {
    status: 409,
    description: "The edit of a partial post would change what an account that already published it published; only the failed accounts' overrides can change (details.accountIds).",
  },
  post_not_publishable: { status: 409, description: 'The post cannot be published in its current state (only a draft or a scheduled post can).' },
  post_not_retryable: { status: 409, description: 'Only a partial or failed post has accounts to retry.' },
  approval_required: { status: 403, description: 'The workspace requires approval (approvalRequired) and the key lacks the approve scope: publishing now (publishNow, or POST /posts/:id/publish of a post not approved) needs a reviewer; nothing was appended.' },
  post_not_reviewable: { status: 409, description: 'Approve or reject names a post that is not held for review, or one that is no longer a draft or a scheduled post before its time.' },
  precondition_failed: { status: 412, description: 'If-Match names a version of the post that is no longer current; GET it again.' },
  idempotency_key_reused: { status: 422, description: 'The Idempotency-Key was already used with a different request body.' },
  rate_limited: { status: 429, description: 'The key has sent more requests than a rate limit allows; retry after Retry-After seconds (details.limit, details.windowSeconds).' },
  service_unavailable: { status: 503, description: 'A backing service did not answer in time; retry later. Nothing is known to have been created.' },
  internal_error: { status: 500, description: 'An unexpected failure.' },
  unknown_comment: { status: 404, description: 'commentId names no comment stored for this workspace on that platform (a platform id from elsewhere, or another workspace\'s comment).' },
  comment_platform_mismatch: { status: 400, description: 'platform is not the platform of the comment commentId names.' },
  account_platform_mismatch: { status: 400, description: 'accountId is an account on another platform than the comment; there is no fallback.' },
  reply_message_invalid: { status: 400, description: 'The reply message is empty or over 2,200 characters.' },
  platform_rejected: { status: 502, description: 'The platform refused the reply (or the hide, unhide, delete, or the boards listing); details carry its {code, message, retryable}. Nothing was posted.' },
  platform_outcome_unknown: { status: 504, description: 'The platform did not answer the reply in time; it may or may not be live. Sending the same reply again looks it up on the platform and records it, instead of posting it twice.' },
  boards_not_supported: { status: 422, description: 'GET /accounts/:id/boards names an account on a platform without boards (only Pinterest has them); nothing was sent.' },
  comment_action_not_supported: { status: 422, description: 'The comment\'s platform does not let the workspace do this through its API (see canReply, canHide, canDelete on the comment); nothing was sent or recorded.' },
  unknown_reply: { status: 404, description: 'replyId names no reply this workspace posted to that comment.' },
  x_quota_exhausted: { status: 429, description: 'The workspace\'s monthly pool of X posts and replies is used up; the platform was not called.' },
  webhook_signature_invalid: { status: 401, description: 'A webhook call without a valid X-Hub-Signature-256 (missing, malformed, or not the HMAC of the body); nothing was stored.' },
  account_needs_reauth: { status: 400, description: 'publishNow names an account that needs re-authorisation (its platform refused its credential); connect it again first. Drafts and scheduled posts may name it.' },
  platform_not_configured: { status: 400, description: 'The platform has no app configured for signing in (client id and secret, callback url): see the README.' },
  sign_in_not_supported: { status: 400, description: 'This platform is not connected by a browser sign-in (Bluesky: POST /api/v1/accounts with handle and appPassword).' },
  invalid_redirect_uri: { status: 400, description: 'redirectUri is not an absolute https url without credentials or fragment, or names a loopback, private or link-local address or localhost (allowed over http only for hosts in OAUTH_REDIRECT_ALLOWED_HOSTS, for development).' },
  redirect_uri_not_allowed: { status: 400, description: 'redirectUri is not on one of the origins the workspace allows for sign-ins (its redirect allow list, set with the admin CLI).' },
  invalid_instance_url: { status: 400, description: 'instanceUrl (or pds) is not an https url of a server (or is missing where the platform needs one).' },
  invalid_credentials: { status: 400, description: 'The platform refused the credential (or it belongs to no account this service can act as); nothing was stored.' },
  connect_state_invalid: { status: 400, description: 'The sign-in callback\'s state is unknown, forged, already used or expired: start the connection again.' },
  connection_verifier_invalid: { status: 403, description: 'verifier is not the one POST /api/v1/accounts/connect answered for this sign-in; nothing was attached.' },
  connection_already_completed: { status: 409, description: 'This sign-in\'s connection was already completed (a connection id is single-use); its accounts are listed by GET /api/v1/accounts.' },
  connection_expired: { status: 410, description: 'The sign-in\'s connection was not completed within ten minutes of the callback; nothing was attached: start the connection again.' },
  connect_link_invalid: { status: 404, description: 'The connect link is unknown, or its signature does not match (altered or forged): nothing can be connected with it.' },
  connect_link_expired: { status: 410, description: 'The connect link\'s time is over: ask for a new one. Nothing was connected.' },
  connect_link_revoked: { status: 410, description: 'The connect link was revoked (DELETE /api/v1/connect-links/:id): nothing can be connected with it.' },
  platform_not_offered: { status: 400, description: 'The connect link does not offer this platform; nothing was started.' },
  platform_unavailable: { status: 503, description: 'The platform did not answer (or answered with a transient error) while connecting; retry later. Nothing was stored.' },
  webhook_verification_failed: { status: 403, description: 'A webhook verification request with a wrong hub.mode or hub.verify_token.' },
  invalid_webhook_url: { status: 400, description: 'url is not an absolute https url without credentials (http only for hosts in WEBHOOK_ALLOWED_HOSTS), or is over 2,048 characters.' },
  webhook_url_refused: { status: 400, description: 'url names a loopback, private, link-local or metadata address (or a host resolving to one) not in WEBHOOK_ALLOWED_HOSTS.' },
  invalid_webhook_events: { status: 400, description: 'events is empty, or names an event type that does not exist (details.unknown lists them).' },
  invalid_replay_start: { status: 400, description: 'A replay needs exactly one of since (an ISO 8601 time in the past) or afterPosition (a position from a payload or an earlier replay).' },
  webhook_endpoint_disabled: { status: 409, description: 'The endpoint is disabled: enable it (PATCH enabled=true) before testing, redelivering or replaying to it.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** A candidate listed when a reference is ambiguous. */
export interface AccountCandidate {
  accountId: string;
  platform: string;
  account: string;
  connected: boolean;
}

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    candidates?: AccountCandidate[];
    details?: unknown;
  };
}

/**
 * A refusal decided by the domain (a rule of the contract). It crosses NATS
 * as data and becomes the HTTP error body at the gateway.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { candidates?: AccountCandidate[]; details?: unknown } = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}
