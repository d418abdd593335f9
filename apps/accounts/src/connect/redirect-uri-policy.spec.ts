import { DomainError } from '@app/contracts';
import { RedirectUriPolicy } from './redirect-uri-policy';

describe('RedirectUriPolicy: where a sign-in sends the user back', () => {
  const codeOf = (policy: RedirectUriPolicy, value: string, origins: string[] = []): string | null => {
    try {
      policy.check(value, origins);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      return (error as DomainError).code;
    }
  };

  it('takes a public https url, with its own query', () => {
    const policy = new RedirectUriPolicy([]);
    expect(codeOf(policy, 'https://app.example.com/connected?session=1')).toBeNull();
    expect(codeOf(policy, 'https://93.184.216.34/connected')).toBeNull();
  });

  it.each([
    ['http', 'http://app.example.com/x'],
    ['credentials', 'https://user:pw@app.example.com/x'],
    ['a user without password', 'https://user@app.example.com/x'],
    ['a fragment', 'https://app.example.com/x#y'],
    ['an empty fragment', 'https://app.example.com/x#'],
    ['localhost', 'https://localhost/x'],
    ['a .localhost name', 'https://app.localhost/x'],
    ['loopback', 'https://127.0.0.1/x'],
    ['loopback written as a number', 'https://2130706433/x'],
    ['IPv6 loopback', 'https://[::1]/x'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/x'],
    ['private', 'https://192.168.1.10/x'],
    ['link-local', 'https://169.254.169.254/x'],
    ['a metadata name', 'https://metadata.google.internal/x'],
    ['another scheme', 'ftp://app.example.com/x'],
    ['not a url', 'not a url'],
  ])('refuses %s with invalid_redirect_uri', (_case, value) => {
    expect(codeOf(new RedirectUriPolicy([]), value)).toBe('invalid_redirect_uri');
  });

  it('lets OAUTH_REDIRECT_ALLOWED_HOSTS (development) use localhost and loopback, over http too, but never credentials', () => {
    const policy = new RedirectUriPolicy(['localhost', '127.0.0.0/8']);
    expect(codeOf(policy, 'http://localhost:8080/connected')).toBeNull();
    expect(codeOf(policy, 'http://127.0.0.1:8080/connected')).toBeNull();
    expect(codeOf(policy, 'http://user:pw@localhost:8080/connected')).toBe('invalid_redirect_uri');
    expect(codeOf(policy, 'http://192.168.1.10/connected')).toBe('invalid_redirect_uri');
  });

  it("keeps to the workspace's origins when it has some", () => {
    const policy = new RedirectUriPolicy([]);
    const origins = ['https://app.example.com', 'https://admin.example.com:8443'];
    expect(codeOf(policy, 'https://app.example.com/done', origins)).toBeNull();
    expect(codeOf(policy, 'https://ADMIN.example.com:8443/done', origins)).toBeNull();
    expect(codeOf(policy, 'https://admin.example.com/done', origins)).toBe('redirect_uri_not_allowed');
    expect(codeOf(policy, 'https://app.example.com.evil.test/done', origins)).toBe('redirect_uri_not_allowed');
  });
});
