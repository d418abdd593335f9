import { DomainError } from '@app/contracts';
import { checkedInstanceUrl, InstanceResolver } from './connect-errors';

describe('checkedInstanceUrl: the server a user names for Mastodon or Bluesky', () => {
  const configured = 'http://127.0.0.1:4010/mastodon';
  const dns: Record<string, string[]> = {
    'mastodon.social': ['104.18.1.1', '2606:4700::6812:101'],
    'inside.example': ['10.0.0.7'],
    'mixed.example': ['104.18.1.1', '127.0.0.1'],
  };
  const resolve: InstanceResolver = async (hostname) => dns[hostname] ?? [];
  const refusal = async (value: string) => {
    const error = await checkedInstanceUrl(value, configured, resolve).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).code;
  };

  it('takes an https server on public addresses, and the configured endpoint (the sandbox) as it is', async () => {
    expect(await checkedInstanceUrl('https://mastodon.social/', configured, resolve)).toBe('https://mastodon.social');
    expect(await checkedInstanceUrl(`${configured}/`, configured, resolve)).toBe(configured);
    expect(await checkedInstanceUrl(undefined, configured, resolve)).toBeNull();
  });

  it.each([
    ['a name resolving to a private address', 'https://inside.example'],
    ['a name with one loopback address among public ones', 'https://mixed.example'],
    ['a loopback literal', 'https://127.0.0.1:8443'],
    ['an IPv4-mapped loopback literal', 'https://[::ffff:127.0.0.1]'],
    ['an IPv4-compatible loopback literal (::7f00:1)', 'https://[::127.0.0.1]:8443'],
    ['a 6to4 address carrying a private IPv4 address', 'https://[2002:c0a8:101::1]'],
    ['a Teredo address whose client is loopback', 'https://[2001:0:808:808::80ff:fffe]'],
    ['a documentation address', 'https://[2001:db8::1]'],
    ['the cloud metadata address', 'https://169.254.169.254'],
    ['a metadata hostname', 'https://metadata.google.internal'],
    ['a name that does not resolve', 'https://nowhere.example'],
    ['plain http', 'http://mastodon.social'],
    ['credentials in the url', 'https://user:pass@mastodon.social'],
  ])('refuses %s with invalid_instance_url', async (_case, value) => {
    expect(await refusal(value)).toBe('invalid_instance_url');
  });
});
