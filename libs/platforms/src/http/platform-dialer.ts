import type { Dispatcher } from 'undici';
import { guardedAgent, MediaHostAllowList, MediaResolver } from '@app/media';
import type { PlatformEndpoints } from '../endpoints';

/**
 * How platform calls connect. A Mastodon instance or a Bluesky PDS is a host a user named,
 * and the name may later resolve elsewhere (a DNS change, rebinding): every platform call
 * dials through the media fetcher's guarded agent (libs/media: one SSRF policy in the
 * service), which refuses loopback, private, link-local and metadata addresses judged on
 * the address actually dialled — on every call, not only when the account was connected.
 * The configured endpoints (the real hosts, PLATFORM_SANDBOX_URL, PLATFORM_BASE_URL_*) are
 * the operator's own and are exempt, host and port, as MEDIA_ALLOWED_HOSTS entries are.
 */
export function platformDialer(endpoints: PlatformEndpoints, resolver?: MediaResolver): Dispatcher {
  const configuredHosts = [...new Set(Object.values(endpoints).map((url) => new URL(url).host))];
  return guardedAgent(new MediaHostAllowList(configuredHosts, 'PLATFORM_SANDBOX_URL / PLATFORM_BASE_URL_*'), resolver);
}
