import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Hostnames of cloud metadata services refused before any lookup (their addresses,
 * 169.254.169.254 and fd00:ec2::254, are link-local and unique-local: refused anyway).
 */
const METADATA_HOSTNAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

/**
 * The range that makes an address unfit to fetch from, or null when it may be: anything
 * but global unicast is refused — loopback, private (RFC 1918, fc00::/7), link-local
 * (169.254/16, fe80::/10), multicast, unspecified, CGNAT 100.64/10 (carrierGradeNat),
 * broadcast, reserved and documentation ranges — with IPv4-mapped IPv6 (::ffff:127.0.0.1)
 * judged as the IPv4 address it is. The IPv6 forms that carry an IPv4 address elsewhere
 * (6to4, Teredo, NAT64) are not global unicast either, so they are refused too. Not an
 * address at all: 'invalid'.
 */
export function refusedRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : range;
}

/** Whether a hostname names a cloud metadata service. */
export function isMetadataHostname(hostname: string): boolean {
  return METADATA_HOSTNAMES.has(hostname.toLowerCase().replace(/\.$/, ''));
}

/**
 * MEDIA_ALLOWED_HOSTS: hosts, host:port pairs and CIDR ranges exempt from the address
 * refusal (the local sandbox, tests, an internal CDN). A host entry matches the url's
 * hostname on any port, host:port that port only, a CIDR range the address connected to.
 */
export class MediaHostAllowList {
  private readonly hosts = new Set<string>();
  private readonly hostPorts = new Set<string>();
  private readonly ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];

  /** `setting`: the variable the entries came from, named when one is malformed (WEBHOOK_ALLOWED_HOSTS reuses this policy). */
  constructor(entries: readonly string[] = [], setting = 'MEDIA_ALLOWED_HOSTS') {
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase();
      if (entry === '') continue;
      if (entry.includes('/')) {
        if (!ipaddr.isValidCIDR(entry)) throw malformed(setting, raw);
        this.ranges.push(ipaddr.parseCIDR(entry));
        continue;
      }
      const hostPort = splitHostPort(entry);
      if (!hostPort) throw malformed(setting, raw);
      if (hostPort.port === null) this.hosts.add(hostPort.host);
      else this.hostPorts.add(`${hostPort.host}:${hostPort.port}`);
    }
  }

  /** Whether a url's host (bracketless for IPv6) and effective port are listed. */
  allowsHost(hostname: string, port: number): boolean {
    const host = normalHost(hostname);
    return this.hosts.has(host) || this.hostPorts.has(`${host}:${port}`);
  }

  /** Whether an address lies in a listed CIDR range (IPv4-mapped IPv6 judged as IPv4). */
  allowsAddress(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    const parsed = ipaddr.process(address);
    return this.ranges.some((range) => parsed.kind() === range[0].kind() && parsed.match(range));
  }
}

function malformed(setting: string, entry: string): Error {
  return new Error(`${setting}: ${JSON.stringify(entry)} is not a host, host:port or CIDR range`);
}

function normalHost(hostname: string): string {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return isIP(host) === 6 ? ipaddr.parse(host).toNormalizedString() : host;
}

/** "host", "host:port", "[v6]" , "[v6]:port" or a bare IPv6 address; null when malformed. */
function splitHostPort(entry: string): { host: string; port: number | null } | null {
  const parts = /^\[([0-9a-f:.]+)\](?::(\d+))?$/.exec(entry) ?? (isIP(entry) === 6 ? [entry, entry] : /^([a-z0-9.-]+)(?::(\d+))?$/.exec(entry));
  if (!parts || (entry.startsWith('[') && isIP(parts[1]) !== 6)) return null;
  const port = parts[2] === undefined ? null : portOf(parts[2]);
  return Number.isNaN(port) ? null : { host: normalHost(parts[1]), port };
}

function portOf(raw: string): number {
  const port = Number(raw);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : Number.NaN;
}
