import { clearSignInCookie, readSignInCookie, setSignInCookie } from './sign-in-cookie';

const VERIFIER = 'Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6';

describe('the connect page sign-in cookie', () => {
  it('is HttpOnly, SameSite=Lax, on the page path, Secure on an https page', () => {
    const cookie = setSignInCookie({ platform: 'x', verifier: VERIFIER }, 'https://api.example.com/connect/abc.def');
    expect(cookie).toBe(`connect_signin=x.${VERIFIER}; Max-Age=1800; Path=/connect/abc.def; HttpOnly; Secure; SameSite=Lax`);
  });

  it('is not Secure on a plain-http development page (the browser would drop it)', () => {
    expect(setSignInCookie({ platform: 'mastodon', verifier: VERIFIER }, 'http://localhost:3000/connect/abc.def')).not.toContain('Secure');
  });

  it('reads back what it wrote, among other cookies', () => {
    expect(readSignInCookie(`a=1; connect_signin=mastodon.${VERIFIER}; b=2`)).toEqual({ platform: 'mastodon', verifier: VERIFIER });
  });

  it.each([undefined, '', 'connect_signin=', `connect_signin=myspace.${VERIFIER}`, 'connect_signin=x.short', `connect_signin=x.${VERIFIER}%20x`, `other=x.${VERIFIER}`])('reads nothing from %p', (header) => {
    expect(readSignInCookie(header)).toBeNull();
  });

  it('is removed on the same path', () => {
    expect(clearSignInCookie('/connect/abc.def', false)).toBe('connect_signin=; Max-Age=0; Path=/connect/abc.def; HttpOnly; SameSite=Lax');
  });
});
