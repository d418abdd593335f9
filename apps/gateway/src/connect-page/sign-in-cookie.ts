import { parseCookie, stringifySetCookie } from 'cookie';
import { Platform, PLATFORMS } from '@app/contracts';

/**
 * The page keeps a sign-in's verifier in a cookie until the platform sends the browser back:
 * HttpOnly (no script reads it), Secure unless the page is served over plain http (a
 * development host), SameSite=Lax (sent on the top-level GET that comes back from the platform,
 * not on cross-site subrequests), scoped to the link's own page path. Only the browser that
 * started the sign-in can complete it: a forwarded consent link comes back without it.
 */
export const SIGN_IN_COOKIE = 'connect_signin';

/** Long enough for the consent (the state's ten minutes) and the completion (ten more). */
const MAX_AGE_SECONDS = 30 * 60;

export interface SignInCookie {
  platform: Platform;
  verifier: string;
}

export function setSignInCookie(value: SignInCookie, pageUrl: string): string {
  const url = new URL(pageUrl);
  return stringifySetCookie({
    name: SIGN_IN_COOKIE,
    value: `${value.platform}.${value.verifier}`,
    httpOnly: true,
    secure: url.protocol === 'https:',
    sameSite: 'lax',
    path: url.pathname,
    maxAge: MAX_AGE_SECONDS,
  });
}

/** Removes it once the sign-in came back (used or not). */
export function clearSignInCookie(pagePath: string, secure: boolean): string {
  return stringifySetCookie({ name: SIGN_IN_COOKIE, value: '', httpOnly: true, secure, sameSite: 'lax', path: pagePath, maxAge: 0 });
}

export function readSignInCookie(header: string | undefined): SignInCookie | null {
  if (!header) return null;
  const raw = parseCookie(header)[SIGN_IN_COOKIE];
  const match = raw ? /^([a-z]+)\.([A-Za-z0-9_-]{20,256})$/.exec(raw) : null;
  if (!match || !(PLATFORMS as readonly string[]).includes(match[1])) return null;
  return { platform: match[1] as Platform, verifier: match[2] };
}
