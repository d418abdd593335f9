import { ConnectLinkPage } from '@app/contracts';
import { connectPage, unusablePage } from './connect-page.view';

const PAGE: ConnectLinkPage = {
  id: 'l-1',
  expiresAt: '2030-01-01T00:00:00.000Z',
  brand: { name: '<script>alert(1)</script>', logoUrl: 'https://cdn.example.com/a.png?x="><script>', accentColor: '#0a7' },
  platforms: [
    { platform: 'x', connectsWith: 'oauth', accounts: [{ id: 'a-1', account: '@<b>bold</b>', displayName: '"quoted"', status: 'connected' }] },
    { platform: 'mastodon', connectsWith: 'instance', accounts: [] },
    { platform: 'bluesky', connectsWith: 'app_password', accounts: [] },
  ],
};

describe('the connect page', () => {
  const html = connectPage('tok.en', PAGE, { kind: 'error', text: 'Mastodon: <img src=x>' });

  it('escapes everything a client or a platform chose (brand, handles, messages)', () => {
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<img src=x>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('src="https://cdn.example.com/a.png?x=&quot;&gt;&lt;script&gt;"');
  });

  it('has no script and no inline style; the accent travels in the stylesheet url', () => {
    expect(html).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
    expect(html).toContain('<link rel="stylesheet" href="../connect-page.css?accent=0a7">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });

  it('labels every field it asks for', () => {
    for (const [, id] of html.matchAll(/<input id="([^"]+)"/g)) expect(html).toContain(`<label for="${id}">`);
    expect([...html.matchAll(/<input id=/g)]).toHaveLength(3);
  });

  it('announces an error as an alert, and a success as a status', () => {
    expect(html).toContain('<p class="notice error" role="alert">');
    expect(connectPage('t', PAGE, { kind: 'success', text: 'X: connected @a.' })).toContain('role="status"');
  });

  it('says why a link cannot be used, without any form', () => {
    for (const code of ['connect_link_expired', 'connect_link_revoked', 'connect_link_invalid']) expect(unusablePage(code)).not.toContain('<form');
    expect(unusablePage('connect_link_expired')).toContain('This link has expired');
  });
});
