import { ErrorCode } from '@app/contracts';

/*
 * The codes each operation can answer beyond AUTHENTICATED_ERRORS, in
 * the order the API checks them. The codes, statuses and meanings themselves
 * live in ERROR_CODES.
 */

/** What any request can be refused with before it reaches its operation (HTTP framing, sizes). */
const REQUEST_ERRORS: ErrorCode[] = ['malformed_request', 'request_timeout', 'uri_too_long', 'headers_too_large'];

/**
 * A JSON body of the DTO's shape, within its size and depth, every string one
 * storage can hold, no field the DTO does not take. An operation that takes no
 * body answers the same to one with fields (or one not JSON); an empty {} passes.
 */
const BODY_ERRORS: ErrorCode[] = ['unsupported_media_type', 'payload_too_large', 'unknown_field', 'invalid_body'];

/** The contract's rules on a post's fields (create, and edit for the fields it changes). */
const POST_RULE_ERRORS: ErrorCode[] = [
  'accounts_required',
  'accounts_and_platforms',
  'unknown_account',
  'account_disconnected',
  'ambiguous_account',
  'unknown_platform',
  'platform_not_connected',
  'ambiguous_platform',
  'content_required',
  'content_too_long',
  'too_many_media_urls',
  'invalid_media_url',
  'alt_text_mismatch',
  'alt_text_too_long',
  'too_many_first_comments',
  'first_comment_invalid',
  'invalid_override_key',
  'override_not_publishable',
  'too_many_thread_parts',
  'thread_part_not_publishable',
  'platform_option_invalid',
  'invalid_scheduled_at',
  'scheduled_at_in_past',
  'too_many_accounts',
];

/** Acting on a stored comment as one of the workspace's accounts (reply, hide, unhide), once the platform is known. */
const COMMENT_ACTION_ERRORS: ErrorCode[] = [
  'unknown_comment',
  'comment_platform_mismatch',
  'comment_action_not_supported',
  'unknown_account',
  'account_disconnected',
  'account_platform_mismatch',
  'account_needs_reauth',
];

/** The platform's answer to the action. */
const PLATFORM_CALL_ERRORS: ErrorCode[] = ['platform_rejected', 'platform_outcome_unknown'];

/** An existing post addressed by id, with an optional If-Match. */
const VERSIONED_POST_ERRORS: ErrorCode[] = ['not_found', 'invalid_if_match', 'precondition_failed', 'post_not_editable'];

const OPERATION_RULE_ERRORS = {
  createPost: [
    ...BODY_ERRORS,
    'invalid_idempotency_key',
    'idempotency_key_reused',
    ...POST_RULE_ERRORS,
    'scheduled_and_publish_now',
    'queue_and_scheduled_at',
    'queue_and_publish_now',
    'queue_schedule_missing',
    'queue_full',
    'account_needs_reauth',
    'approval_required',
  ],
  bulkCreatePosts: ['unsupported_media_type', 'payload_too_large', 'unknown_field', 'invalid_body', 'invalid_idempotency_key', 'queue_and_atomic'],
  getBulkImport: ['not_found'],
  reviewPost: [...BODY_ERRORS, 'not_found', 'post_not_reviewable'],
  getWorkspace: [],
  updateWorkspace: [...BODY_ERRORS, 'invalid_workspace_settings'],
  listPosts: ['invalid_query'],
  setSchedule: [...BODY_ERRORS, 'not_found', 'invalid_time_zone', 'invalid_schedule_slot'],
  getSchedule: ['not_found'],
  listQueue: ['invalid_query', 'not_found'],
  calendar: ['invalid_query', 'invalid_time_zone', 'range_too_long'],
  // Any valid key, not counted: neither insufficient_scope nor rate_limited, unlike the other operations behind the key.
  me: ['unauthenticated', 'unknown_query_parameter', 'internal_error', 'service_unavailable'],
  // Any valid key, not counted (its tools' API calls are, and answer their refusals inside the MCP result).
  mcp: ['unauthenticated', 'unknown_query_parameter', 'internal_error', 'service_unavailable', 'unsupported_media_type', 'payload_too_large', 'invalid_body'],
  getPost: ['not_found'],
  publishPost: [...BODY_ERRORS, 'not_found', 'post_not_publishable', 'approval_required'],
  retryPost: [...BODY_ERRORS, 'not_found', 'post_not_retryable'],
  editPost: [...BODY_ERRORS, ...VERSIONED_POST_ERRORS, 'nothing_to_edit', 'account_already_published', ...POST_RULE_ERRORS],
  deletePost: [...BODY_ERRORS, ...VERSIONED_POST_ERRORS],
  listComments: ['invalid_query'],
  replyToComment: [...BODY_ERRORS, 'unknown_platform', 'reply_message_invalid', ...COMMENT_ACTION_ERRORS, 'x_quota_exhausted', ...PLATFORM_CALL_ERRORS],
  listCommentReplies: ['unknown_platform', 'unknown_comment'],
  hideComment: [...BODY_ERRORS, 'unknown_platform', ...COMMENT_ACTION_ERRORS, ...PLATFORM_CALL_ERRORS],
  unhideComment: [...BODY_ERRORS, 'unknown_platform', ...COMMENT_ACTION_ERRORS, ...PLATFORM_CALL_ERRORS],
  deleteCommentReply: [
    ...BODY_ERRORS,
    'unknown_platform',
    'unknown_comment',
    'comment_platform_mismatch',
    'comment_action_not_supported',
    'unknown_reply',
    'account_disconnected',
    'account_needs_reauth',
    ...PLATFORM_CALL_ERRORS,
  ],
  startConnect: [...BODY_ERRORS, 'invalid_redirect_uri', 'redirect_uri_not_allowed', 'sign_in_not_supported', 'invalid_instance_url', 'platform_not_configured', 'platform_unavailable'],
  connectCallback: ['invalid_query', 'connect_state_invalid'],
  completeConnect: [...BODY_ERRORS, 'not_found', 'connection_verifier_invalid', 'connection_already_completed', 'connection_expired'],
  connectWithCredentials: [...BODY_ERRORS, 'invalid_instance_url', 'invalid_credentials', 'platform_unavailable'],
  disconnectAccount: [...BODY_ERRORS, 'not_found'],
  createConnectLink: [...BODY_ERRORS, 'invalid_redirect_uri', 'redirect_uri_not_allowed', 'platform_not_configured'],
  revokeConnectLink: ['not_found'],
  connectPage: ['invalid_query', 'connect_link_invalid', 'connect_link_revoked', 'connect_link_expired'],
  startConnectPageSignIn: [...BODY_ERRORS, 'connect_link_invalid', 'connect_link_revoked', 'connect_link_expired', 'platform_not_offered', 'invalid_instance_url', 'platform_not_configured', 'platform_unavailable'],
  connectPageAppPassword: [...BODY_ERRORS, 'connect_link_invalid', 'connect_link_revoked', 'connect_link_expired', 'platform_not_offered', 'invalid_credentials', 'platform_unavailable'],
  finishConnectPage: ['connect_link_invalid', 'connect_link_revoked', 'connect_link_expired'],
  listBoards: ['not_found', 'boards_not_supported', 'account_needs_reauth', 'account_disconnected', 'platform_rejected'],
  verifyMetaWebhook: ['webhook_verification_failed'],
  listAccounts: [],
  getPostMetrics: ['not_found', 'invalid_query'],
  getPostMetricsChart: ['not_found', 'invalid_query'],
  topPosts: ['invalid_query'],
  accountAnalytics: ['not_found', 'invalid_query'],
  accountFollowersChart: ['not_found', 'invalid_query'],
  receiveMetaWebhook: ['payload_too_large', 'invalid_body', 'webhook_signature_invalid', 'internal_error', 'service_unavailable'],
  createWebhook: [...BODY_ERRORS, 'invalid_webhook_url', 'webhook_url_refused', 'invalid_webhook_events'],
  listWebhooks: [],
  getWebhook: ['not_found'],
  updateWebhook: [...BODY_ERRORS, 'nothing_to_edit', 'invalid_webhook_url', 'webhook_url_refused', 'invalid_webhook_events', 'not_found'],
  deleteWebhook: [...BODY_ERRORS, 'not_found'],
  rotateWebhookSecret: [...BODY_ERRORS, 'not_found'],
  testWebhook: [...BODY_ERRORS, 'not_found', 'webhook_endpoint_disabled'],
  listWebhookDeliveries: ['invalid_query', 'not_found'],
  redeliverWebhook: [...BODY_ERRORS, 'not_found', 'webhook_endpoint_disabled'],
  replayWebhook: [...BODY_ERRORS, 'invalid_replay_start', 'not_found', 'webhook_endpoint_disabled'],
} satisfies Record<string, ErrorCode[]>;

/** The operations with path parameters: a parameter storage cannot hold (NUL) is invalid_query before anything else (validation/storable-path-params.ts). */
const PATH_PARAMETER_OPERATIONS = new Set<keyof typeof OPERATION_RULE_ERRORS>([
  'getPost', 'publishPost', 'retryPost', 'editPost', 'deletePost', 'listCommentReplies', 'deleteCommentReply', 'disconnectAccount', 'listBoards',
  'getWebhook', 'updateWebhook', 'deleteWebhook', 'rotateWebhookSecret', 'testWebhook', 'listWebhookDeliveries', 'redeliverWebhook', 'replayWebhook',
]);

const withPathParameterErrors = (operation: keyof typeof OPERATION_RULE_ERRORS, codes: readonly ErrorCode[]): ErrorCode[] =>
  PATH_PARAMETER_OPERATIONS.has(operation) && !codes.includes('invalid_query') ? ['invalid_query', ...codes] : [...codes];

/** Each operation's codes: the request's, then its own rules'. */
export const OPERATION_ERRORS = Object.fromEntries(
  Object.entries(OPERATION_RULE_ERRORS).map(([operation, codes]) => [operation, [...REQUEST_ERRORS, ...withPathParameterErrors(operation as keyof typeof OPERATION_RULE_ERRORS, codes)]]),
) as Record<
  keyof typeof OPERATION_RULE_ERRORS,
  ErrorCode[]
>;
