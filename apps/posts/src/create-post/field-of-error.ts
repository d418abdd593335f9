import { DomainError, ErrorCode } from '@app/contracts';

/** The create field each rule's refusal is about: a bulk import names it as the row's column. */
const FIELD_OF_CODE: Partial<Record<ErrorCode, string>> = {
  content_required: 'content',
  content_too_long: 'content',
  accounts_required: 'accounts',
  accounts_and_platforms: 'accounts',
  too_many_accounts: 'accounts',
  unknown_account: 'accounts',
  account_disconnected: 'accounts',
  ambiguous_account: 'accounts',
  account_needs_reauth: 'accounts',
  unknown_platform: 'platforms',
  platform_not_connected: 'platforms',
  ambiguous_platform: 'platforms',
  too_many_media_urls: 'mediaUrls',
  invalid_media_url: 'mediaUrls',
  alt_text_mismatch: 'altText',
  alt_text_too_long: 'altText',
  too_many_first_comments: 'firstComments',
  first_comment_invalid: 'firstComments',
  invalid_override_key: 'overrides',
  override_not_publishable: 'overrides',
  too_many_thread_parts: 'thread',
  thread_part_not_publishable: 'thread',
  platform_option_invalid: 'platformOptions',
  invalid_scheduled_at: 'scheduledAt',
  scheduled_at_in_past: 'scheduledAt',
  scheduled_and_publish_now: 'scheduledAt',
  approval_required: 'publishNow',
};

/** The field a refusal is about, or undefined when it is about the row as a whole. */
export function fieldOfError(error: DomainError): string | undefined {
  return FIELD_OF_CODE[error.code];
}
