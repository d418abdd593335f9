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
    // IPv6 forms that reach IPv4 through a gateway are not global unicast.
    ['2002:7f00:1::1', '6to4'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['not-an-address', 'invalid'],
  ])('%s is refused (%s)', (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::6810:84e5', '::ffff:8.8.8.8'])('%s is public', (address) => {
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
