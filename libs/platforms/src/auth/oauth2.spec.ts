import { PlatformCallFailed } from '../http/platform-http';
import { mapOAuthError, tokenSetFrom } from './oauth2';

/** The token endpoint answers as RFC 6749 §5.1 / §5.2 and the platforms' own pages show them. */

const response = (status: number, body: unknown) => ({ status, headers: new Headers(), body });

describe('tokenSetFrom', () => {
  it("reads Google's refresh answer (no refresh token: null, the caller keeps its own; space-separated scopes)", () => {
    const before = Date.now();
    const tokens = tokenSetFrom({ access_token: 'ya29.a0', expires_in: 3599, scope: 'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.force-ssl', token_type: 'Bearer' });
    expect(tokens).toEqual({
      accessToken: 'ya29.a0',
      refreshToken: null,
      expiresAt: expect.any(String),
      refreshTokenExpiresAt: null,
      scopes: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.force-ssl'],
    });
    expect(Date.parse(tokens.expiresAt as string) - before).toBeGreaterThanOrEqual(3599_000 - 1000);
  });

  it("reads TikTok's refresh_expires_in and Pinterest's refresh_token_expires_in, and comma-separated scopes", () => {
    const tiktok = tokenSetFrom({ access_token: 'act.1', refresh_token: 'rft.1', expires_in: 7200, refresh_expires_in: 86_400, open_id: 'o', scope: 'user.info.basic,video.publish' });
    const pinterest = tokenSetFrom({ access_token: 'pina_1', refresh_token: 'pinr_1', expires_in: 2_592_000, refresh_token_expires_in: 5_184_000, scope: 'boards:read,pins:write' });
    expect(Date.parse(tiktok.refreshTokenExpiresAt as string) - Date.parse(tiktok.expiresAt as string)).toBeGreaterThanOrEqual((86_400 - 7200) * 1000 - 1000);
    expect(Date.parse(pinterest.refreshTokenExpiresAt as string) - Date.parse(pinterest.expiresAt as string)).toBeGreaterThanOrEqual((5_184_000 - 2_592_000) * 1000 - 1000);
    expect([tiktok.scopes, pinterest.scopes]).toEqual([
      ['user.info.basic', 'video.publish'],
      ['boards:read', 'pins:write'],
    ]);
  });

  it("turns a 2xx answer without a token into the platform's own error when it carries one, else unexpected_response", () => {
    const refused = () => tokenSetFrom({ error: 'invalid_grant', error_description: 'Authorization code is expired.', log_id: '2024' });
    expect(refused).toThrow(PlatformCallFailed);
    expect(refused).toThrow(expect.objectContaining({ error: { code: 'invalid_grant', message: 'Authorization code is expired.', retryable: false } }));
    expect(() => tokenSetFrom({ token_type: 'Bearer' })).toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'unexpected_response' }) }));
  });
});

describe('mapOAuthError', () => {
  it('keeps the error code; only 5xx/429 and server_error / temporarily_unavailable are worth retrying', () => {
    expect(mapOAuthError(response(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }))).toEqual({
      code: 'invalid_grant',
      message: 'Token has been expired or revoked.',
      retryable: false,
    });
    expect(mapOAuthError(response(400, { error: 'temporarily_unavailable' })).retryable).toBe(true);
    expect(mapOAuthError(response(503, 'Service Unavailable'))).toMatchObject({ code: 'platform_unavailable', retryable: true });
  });
});
