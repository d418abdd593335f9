import { DomainError, Platform } from '@app/contracts';
import { CredentialRefused, PlatformCallFailed } from '@app/platforms';

/** A platform's refusal while connecting, as the API's answer: refused credential, or the platform unavailable for now. */
export function connectFailure(error: unknown, platform: Platform): DomainError {
  if (error instanceof CredentialRefused) return new DomainError('invalid_credentials', `${platform} refused the credential: ${error.message}`, { details: { platformCode: error.code } });
  if (error instanceof PlatformCallFailed) {
    return error.error.retryable
      ? new DomainError('platform_unavailable', `${platform} did not answer: ${error.error.message}`, { details: { platformCode: error.error.code } })
      : new DomainError('invalid_credentials', `${platform} refused the credential: ${error.error.message}`, { details: { platformCode: error.error.code } });
  }
  throw error;
}

/** An instance (Mastodon) or PDS (Bluesky) url the service may call: https, or the configured endpoint itself (the sandbox). */
export function checkedInstanceUrl(value: string | null | undefined, configured: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DomainError('invalid_instance_url', `${JSON.stringify(value)} is not a url`);
  }
  const normalized = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  if (url.protocol !== 'https:' && normalized !== configured.replace(/\/+$/, '')) {
    throw new DomainError('invalid_instance_url', 'the instance url must be https');
  }
  if (url.username || url.password || url.search || url.hash) throw new DomainError('invalid_instance_url', 'the instance url must be a bare server url');
  return normalized;
}
