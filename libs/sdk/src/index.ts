/**
 * The TypeScript SDK of the social publishing API: a client generated from the
 * OpenAPI document (openapi-typescript types, openapi-fetch runtime) with what a
 * generator does not give: paging iterators, Idempotency-Key on creates,
 * retries that honour Retry-After, typed errors by code, webhook verification.
 * It imports nothing of the service: only its generated code and its own.
 */
export { SocialClient, SocialClientOptions, Schemas, QueryOf, answerOf, isComplete } from './social-client';
export { SocialApiError, isSocialApiError, ApiErrorCode, ApiErrorBody, SdkErrorCode, retryAfterSecondsOf } from './api-error';
export { RetryOptions, retryingFetch } from './retrying-fetch';
export { pagesOf, itemsOf, Page } from './pages';
export { verifyWebhook, WebhookEvent, WebhookEventType, WebhookHeaders, WebhookVerificationError } from './webhooks';
export { OPERATIONS, INPUT_SCHEMAS, OperationInputs } from './generated/operations';
export type { paths, components, operations, webhooks } from './generated/openapi';
