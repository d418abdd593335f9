import { isMetadataHostname, MediaHostAllowList, refusedRange } from './address-policy';

describe('refusedRange: only global unicast addresses may be fetched from', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['169.254.1.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['255.255.255.255', 'broadcast'],
    // Cloud metadata: AWS/GCP/Azure 169.254.169.254 and AWS's IPv6 endpoint.
    ['169.254.169.254', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    // IPv4-mapped IPv6 is judged as the IPv4 address it carries.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:100.64.0.1', 'carrierGradeNat'],
    ['::ffff:192.0.2.1', 'reserved'],
    // IPv4-compatible ::/96 (deprecated): refused whatever it carries.
    ['::127.0.0.1', 'ipv4Compatible'],
    ['::7f00:1', 'ipv4Compatible'],
    ['::10.0.0.1', 'ipv4Compatible'],
    ['::8.8.8.8', 'ipv4Compatible'],
    // IPv4-translated (RFC 6145), discard-only, site-local, anything outside 2000::/3.
    ['::ffff:0:7f00:1', 'rfc6145'],
    ['100::1', 'discard'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['4000::1', 'notGlobalUnicast'],
    ['5f00::1', 'segmentRouting'],
    // NAT64: the well-known prefix judged by the IPv4 address it carries; the local-use prefix refused.
    ['64:ff9b::7f00:1', 'nat64 (loopback 127.0.0.1)'],
    ['64:ff9b::10.1.2.3', 'nat64 (private 10.1.2.3)'],
    ['64:ff9b::a9fe:a9fe', 'nat64 (linkLocal 169.254.169.254)'],
    ['64:ff9b:1::808:808', 'nat64LocalUse'],
    // 6to4: the IPv4 address in bits 16-47.
    ['2002:7f00:1::1', '6to4 (loopback 127.0.0.1)'],
    ['2002:c0a8:101::1', '6to4 (private 192.168.1.1)'],
    ['2002:a9fe:a9fe::', '6to4 (linkLocal 169.254.169.254)'],
    // Teredo: server in bits 32-63, client the bitwise NOT of the last 32 bits.
    ['2001:0:808:808::80ff:fffe', 'teredo (loopback 127.0.0.1)'],
    ['2001:0:808:808::f5ff:fffe', 'teredo (private 10.0.0.1)'],
    ['2001:0:a00:1::f7f7:f7f7', 'teredo (private 10.0.0.1)'],
    // Special-purpose ranges inside 2000::/3 that are not globally reachable (IANA).
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['2001:5::1', 'reserved'],
    ['2001:1::4', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['2001:10::1', 'deprecatedOrchid'],
    ['2001:20::1', 'orchid2'],
    ['2001:30::1', 'droneRemoteIdProtocolEntityTags'],
    ['not-an-address', 'invalid'],
  ])('%s is refused (%s)', (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '192.175.48.1',
    '2606:4700::6810:84e5',
    '2a00:1450:4001:82a::200e',
    '::ffff:8.8.8.8',
    // Forms carrying a public IPv4 address are as public as it is.
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:0:808:808::f7f7:f7f7',
    // Globally reachable special-purpose addresses (IANA): PCP and TURN anycast, AMT, AS112-v6.
    '2001:1::1',
    '2001:1::2',
    '2001:3::1',
    '2001:4:112::1',
    '2620:4f:8000::1',
  ])('%s is public', (address) => {
    expect(refusedRange(address)).toBeNull();
  });

  it('knows the metadata service hostnames, whatever their case or trailing dot', () => {
    expect(isMetadataHostname('metadata.google.internal')).toBe(true);
    expect(isMetadataHostname('METADATA.google.internal.')).toBe(true);
    expect(isMetadataHostname('metadata.example.com')).toBe(false);
  });
});

describe('MediaHostAllowList (MEDIA_ALLOWED_HOSTS)', () => {
  const list = new MediaHostAllowList(['media.internal', 'Sandbox.Local:4011', '[::1]:4012', '10.20.0.0/16', 'fd00::/8']);

  it('a host entry allows that hostname on any port', () => {
    expect(list.allowsHost('media.internal', 443)).toBe(true);
    expect(list.allowsHost('MEDIA.internal', 8443)).toBe(true);
    expect(list.allowsHost('other.internal', 443)).toBe(false);
  });

  it('a host:port entry allows that port only', () => {
    expect(list.allowsHost('sandbox.local', 4011)).toBe(true);
    expect(list.allowsHost('sandbox.local', 4012)).toBe(false);
    expect(list.allowsHost('::1', 4012)).toBe(true);
    expect(list.allowsHost('[0:0::1]', 4012)).toBe(true);
    expect(list.allowsHost('::1', 4011)).toBe(false);
  });

  it('a CIDR entry allows the addresses in it (IPv4-mapped included), not their hostnames', () => {
    expect(list.allowsAddress('10.20.3.4')).toBe(true);
    expect(list.allowsAddress('::ffff:10.20.3.4')).toBe(true);
    expect(list.allowsAddress('10.21.0.1')).toBe(false);
    expect(list.allowsAddress('fd00:ec2::254')).toBe(true);
    expect(list.allowsAddress('fc00::1')).toBe(false);
    expect(list.allowsHost('10.20.3.4', 443)).toBe(false);
  });

  it('refuses a malformed entry', () => {
    expect(() => new MediaHostAllowList(['10.0.0.0/33'])).toThrow('MEDIA_ALLOWED_HOSTS: "10.0.0.0/33" is not a host, host:port or CIDR range');
    expect(() => new MediaHostAllowList(['host:99999'])).toThrow('is not a host, host:port or CIDR range');
    expect(() => new MediaHostAllowList(['[nope]:80'])).toThrow('is not a host, host:port or CIDR range');
  });
});
