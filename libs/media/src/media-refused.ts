/** The stable codes a refused media item fails its account with. */
export type MediaRefusalCode = 'media_unreachable' | 'media_too_large' | 'media_type_not_allowed' | 'media_address_refused';

/**
 * A media url the pipeline would not or could not fetch. Nothing reached the platform,
 * so the account's publication fails definitely (with `retryable` telling whether the
 * same url may work later: a media host's 5xx or timeout may, a private address never).
 */
export class MediaRefused extends Error {
  constructor(
    readonly code: MediaRefusalCode,
    message: string,
    readonly retryable = false,
  ) {
    super(`${code}: ${message}`);
    this.name = 'MediaRefused';
  }
}
