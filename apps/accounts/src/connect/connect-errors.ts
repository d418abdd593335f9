import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DomainError, Platform } from '@app/contracts';
import { isMetadataHostname, refusedRange } from '@app/media';
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

/** How a hostname resolves: every address (tests pass their own). */
export type InstanceResolver = (hostname: string) => Promise<string[]>;

const systemResolver: InstanceResolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * An instance (Mastodon) or PDS (Bluesky) url the service may call: https on a public
 * address, or the configured endpoint itself (the sandbox). A user names this server, so a
 * url resolving to a loopback, private, link-local or metadata address is refused before
 * the service calls it (the SSRF rule the media pipeline applies; checked when connecting,
 * on every address the name resolves to). A name that does not resolve is refused too.
 */
export async function checkedInstanceUrl(value: string | null | undefined, configured: string, resolve: InstanceResolver = systemResolver): Promise<string | null> {
  if (value === null || value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DomainError('invalid_instance_url', `${JSON.stringify(value)} is not a url`);
  }
  const normalized = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  if (normalized === configured.replace(/\/+$/, '')) return normalized;
  if (url.protocol !== 'https:') throw new DomainError('invalid_instance_url', 'the instance url must be https');
  if (url.username || url.password || url.search || url.hash) throw new DomainError('invalid_instance_url', 'the instance url must be a bare server url');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(hostname) ? [hostname] : isMetadataHostname(hostname) ? null : await resolve(hostname).catch(() => []);
  if (addresses === null || addresses.length === 0 || addresses.some((address) => refusedRange(address) !== null)) {
    throw new DomainError('invalid_instance_url', `the instance url must name a server on a public address; ${hostname} ${addresses?.length === 0 ? 'does not resolve' : 'is refused'}`);
  }
  return normalized;
}
