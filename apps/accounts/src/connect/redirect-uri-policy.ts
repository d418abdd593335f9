import { isIP } from 'node:net';
import { DomainError } from '@app/contracts';
import { isMetadataHostname, MediaHostAllowList, refusedRange } from '@app/media';

/**
 * Where a sign-in may send the user back (with its connection id, or an error). The service
 * never calls this url, the user's browser does, so it is judged by what it says, not by
 * what its name resolves to here: https, no credentials (user:pw@) and no fragment (RFC 6749
 * §3.1.2), and not localhost, a loopback, private, link-local or metadata address. Hosts in
 * OAUTH_REDIRECT_ALLOWED_HOSTS (development: npm start allows localhost) may be any of those,
 * over plain http too. A workspace may narrow this further to its own origins.
 */
export class RedirectUriPolicy {
  private readonly allowList: MediaHostAllowList;

  constructor(allowedHosts: readonly string[]) {
    this.allowList = new MediaHostAllowList(allowedHosts, 'OAUTH_REDIRECT_ALLOWED_HOSTS');
  }

  /** Refuses a redirectUri (invalid_redirect_uri; redirect_uri_not_allowed when off the workspace's origins). */
  check(value: string, workspaceOrigins: readonly string[]): void {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw refusal(`redirectUri must be an absolute https url, got ${JSON.stringify(value)}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refusal(`redirectUri must be an absolute https url, got ${JSON.stringify(value)}`);
    if (url.username || url.password) throw refusal('redirectUri must not carry credentials (user:password@)');
    if (url.hash || value.includes('#')) throw refusal('redirectUri must not have a fragment (#...)');
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const allowed = this.allowList.allowsHost(hostname, port) || this.allowList.allowsAddress(hostname);
    if (!allowed) {
      if (url.protocol !== 'https:') throw refusal('redirectUri must be https (plain http only for hosts in OAUTH_REDIRECT_ALLOWED_HOSTS)');
      const local = hostname === 'localhost' || hostname.endsWith('.localhost') || isMetadataHostname(hostname);
      const range = isIP(hostname) ? refusedRange(hostname) : null;
      if (local || range) throw refusal(`redirectUri names ${hostname}${range ? `, a ${range} address` : ''}: a sign-in sends the user to a public host only (OAUTH_REDIRECT_ALLOWED_HOSTS for development)`);
    }
    if (workspaceOrigins.length > 0 && !workspaceOrigins.includes(url.origin)) {
      throw new DomainError('redirect_uri_not_allowed', `redirectUri's origin ${url.origin} is not one the workspace allows for sign-ins (${workspaceOrigins.join(', ')})`);
    }
  }
}

function refusal(message: string): DomainError {
  return new DomainError('invalid_redirect_uri', message);
}
