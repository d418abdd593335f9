import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Hostnames of cloud metadata services refused before any lookup (their addresses,
 * 169.254.169.254 and fd00:ec2::254, are link-local and unique-local: refused anyway).
 */
const METADATA_HOSTNAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

/**
 * IPv4 ranges ipaddr.js names that are globally reachable all the same (IANA IPv4
 * special-purpose registry, https://www.iana.org/assignments/iana-ipv4-special-registry/):
 * AS112 (192.175.48.0/24, 192.31.196.0/24) and AMT (192.52.193.0/24).
 */
const GLOBAL_IPV4_RANGES = new Set(['unicast', 'as112', 'amt']);

/** Global unicast (RFC 4291 §2.4): the only IPv6 space that may be public. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * Within 2000::/3, what ipaddr.js names and IANA's IPv6 special-purpose registry
 * (https://www.iana.org/assignments/iana-ipv6-special-registry/) marks globally
 * reachable: AMT 2001:3::/32 and AS112-v6 (2001:4:112::/48, 2620:4f:8000::/48).
 * Everything else it names there is refused: 2001::/23 IETF protocol assignments
 * ('reserved'), documentation 2001:db8::/32 and 3fff::/20 ('reserved'), benchmarking
 * 2001:2::/48, deprecated ORCHID 2001:10::/28; and, although the registry marks them
 * reachable, ORCHIDv2 2001:20::/28 and drone tags 2001:30::/28: they are identifiers,
 * not locators (RFC 7343 §2: not routable at the IP layer), so no server is there.
 */
const GLOBAL_IPV6_RANGES = new Set(['unicast', 'amt', 'as112v6']);

/** The anycast addresses of 2001:1::/48 IANA marks globally reachable: PCP (::1), TURN (::2), DNS-SD SRP (::3). */
const GLOBAL_IETF_ANYCAST = new Set(['2001:1::1', '2001:1::2', '2001:1::3']);

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const NAT64_LOCAL_USE = ipaddr.parseCIDR('64:ff9b:1::/48');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');
const TEREDO = ipaddr.parseCIDR('2001::/32');

const ipv4Of = (high: number, low: number) => ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]) as ipaddr.IPv4;

function refusedIpv4(address: ipaddr.IPv4): string | null {
  const range = address.range();
  return GLOBAL_IPV4_RANGES.has(range) ? null : range;
}

/** A form that carries an IPv4 address is as public as that address is (the first refused one when it carries two). */
function refusedEmbedding(form: string, ...carried: ipaddr.IPv4[]): string | null {
  for (const address of carried) {
    const range = refusedIpv4(address);
    if (range) return `${form} (${range} ${address.toString()})`;
  }
  return null;
}

function refusedIpv6(address: ipaddr.IPv6): string | null {
  const parts = address.parts;
  // ::ffff:0:0/96, IPv4-mapped (RFC 4291 §2.5.5.2): the IPv4 address it is, as its own range name.
  if (address.isIPv4MappedAddress()) return refusedIpv4(address.toIPv4Address());
  // ::/96, IPv4-compatible (deprecated, RFC 4291 §2.5.5.1): ::7f00:1 is 127.0.0.1 on stacks that still map it.
  if (address.match(IPV4_COMPATIBLE)) return address.range() === 'unicast' ? 'ipv4Compatible' : address.range();
  // NAT64 well-known prefix (RFC 6052 §2.1): a translator reaches the IPv4 address in the last 32 bits.
  if (address.match(NAT64_WELL_KNOWN)) return refusedEmbedding('nat64', ipv4Of(parts[6], parts[7]));
  // NAT64 local-use prefix (RFC 8215): not globally reachable in IANA's registry, whatever it carries.
  if (address.match(NAT64_LOCAL_USE)) return 'nat64LocalUse';
  // 6to4 (RFC 3056 §2): the relay's IPv4 address in bits 16–47.
  if (address.match(SIX_TO_FOUR)) return refusedEmbedding('6to4', ipv4Of(parts[1], parts[2]));
  // Teredo (RFC 4380 §4): the server in bits 32–63, the client as the bitwise NOT of the last 32 bits.
  if (address.match(TEREDO)) return refusedEmbedding('teredo', ipv4Of(parts[2], parts[3]), ipv4Of(~parts[6] & 0xffff, ~parts[7] & 0xffff));
  const range = address.range();
  if (!address.match(GLOBAL_UNICAST)) return range === 'unicast' ? 'notGlobalUnicast' : range;
  if (GLOBAL_IETF_ANYCAST.has(address.toString())) return null;
  return GLOBAL_IPV6_RANGES.has(range) ? null : range;
}

/**
 * Parses an address the way the network stack reads it. ipaddr.js reads an IPv6
 * address written with a dotted IPv4 tail as IPv4-mapped whatever its prefix
 * (`::127.0.0.1` comes out as `::ffff:127.0.0.1`), so the tail is turned into its
 * two hex groups first, as node and the WHATWG URL parser do (`::7f00:1`).
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const dottedTail = address.includes(':') ? /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)(%.*)?$/.exec(address) : null;
  if (!dottedTail) return ipaddr.parse(address);
  const [, head, a, b, c, d, zone = ''] = dottedTail;
  const hex = (high: string, low: string) => ((Number(high) << 8) | Number(low)).toString(16);
  return ipaddr.parse(`${head}${hex(a, b)}:${hex(c, d)}${zone}`);
}

/**
 * The range that makes an address unfit to connect to, or null when it may be: only
 * globally reachable addresses pass. IPv4: anything ipaddr.js names (loopback, RFC 1918
 * private, link-local, multicast, unspecified, CGNAT 100.64/10, broadcast, reserved and
 * documentation) but AS112 and AMT. IPv6: only global unicast 2000::/3 minus IANA's
 * special-purpose ranges that are not globally reachable; the forms that carry an IPv4
 * address (IPv4-mapped, NAT64, 6to4, Teredo) are judged by the address they carry, and
 * IPv4-compatible ::/96 is refused outright. Not an address at all: 'invalid'.
 */
export function refusedRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const parsed = parseAddress(address);
  return parsed.kind() === 'ipv4' ? refusedIpv4(parsed as ipaddr.IPv4) : refusedIpv6(parsed as ipaddr.IPv6);
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
    const exact = parseAddress(address);
    const parsed = exact.kind() === 'ipv6' && (exact as ipaddr.IPv6).isIPv4MappedAddress() ? (exact as ipaddr.IPv6).toIPv4Address() : exact;
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
