import { ConnectLinkBrand, ConnectLinkPage, ConnectLinkPlatform, Platform } from '@app/contracts';

/** What happened on the last step, shown above the list. */
export interface PageNotice {
  kind: 'success' | 'error';
  text: string;
}

const PLATFORM_NAMES: Record<Platform, string> = {
  x: 'X',
  facebook: 'Facebook',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  threads: 'Threads',
  bluesky: 'Bluesky',
  mastodon: 'Mastodon',
  tiktok: 'TikTok',
  youtube: 'YouTube',
  pinterest: 'Pinterest',
};

export function platformName(platform: Platform): string {
  return PLATFORM_NAMES[platform];
}

/** Text for HTML (element content and quoted attribute values). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Every url in the page is relative, so a gateway mounted under a path prefix works as is.
 * `up` leads from the url the page was answered at to the /connect/ directory: '' from the page
 * itself (/connect/<token>), '../' from a form's answer (/connect/<token>/app-password).
 */
export type PageDepth = '' | '../';

/** The stylesheet's url: the accent colour travels in it, so no inline style is needed (CSP style-src 'self'). */
function stylesheet(brand: ConnectLinkBrand | null, up: PageDepth): string {
  const accent = brand?.accentColor?.replace(/^#/, '');
  return `${up}../connect-page.css${accent ? `?accent=${encodeURIComponent(accent)}` : ''}`;
}

function layout(title: string, brand: ConnectLinkBrand | null, body: string, up: PageDepth): string {
  const logo = brand?.logoUrl ? `<img class="logo" src="${escapeHtml(brand.logoUrl)}" alt="${escapeHtml(brand.name ?? '')}" height="48">` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(stylesheet(brand, up))}">
</head>
<body>
<main>
<header>${logo}<h1>${escapeHtml(title)}</h1></header>
${body}
</main>
</body>
</html>`;
}

function platformSection(token: string, entry: ConnectLinkPlatform, up: PageDepth): string {
  const name = platformName(entry.platform);
  const id = `p-${entry.platform}`;
  const connected = entry.accounts.length
    ? `<ul class="accounts" aria-label="${escapeHtml(name)} accounts connected">${entry.accounts.map((a) => `<li>${escapeHtml(a.account)}${a.displayName && a.displayName !== a.account ? ` <span class="muted">(${escapeHtml(a.displayName)})</span>` : ''}</li>`).join('')}</ul>`
    : '';
  const state = `<p class="state" id="${id}-state">${entry.accounts.length ? `Connected (${entry.accounts.length})` : 'Not connected'}</p>`;
  const action = `${up}${encodeURIComponent(token)}`;
  let form: string;
  if (entry.connectsWith === 'app_password') {
    form = `<form method="post" action="${action}/app-password" class="fields">
<label for="${id}-handle">Bluesky handle</label>
<input id="${id}-handle" name="handle" autocomplete="username" placeholder="you.bsky.social" required maxlength="512">
<label for="${id}-password">App password</label>
<input id="${id}-password" name="appPassword" type="password" autocomplete="off" required maxlength="512" aria-describedby="${id}-password-help">
<p class="help" id="${id}-password-help">Create one in Bluesky under Settings → Privacy and security → App passwords. Never your account password.</p>
<button type="submit">Connect Bluesky</button>
</form>`;
  } else if (entry.connectsWith === 'instance') {
    form = `<form method="post" action="${action}/start" class="fields">
<input type="hidden" name="platform" value="${entry.platform}">
<label for="${id}-instance">Your ${escapeHtml(name)} server</label>
<input id="${id}-instance" name="instanceUrl" inputmode="url" placeholder="mastodon.social" maxlength="2048" aria-describedby="${id}-instance-help">
<p class="help" id="${id}-instance-help">The address of the server your account is on.</p>
<button type="submit">Sign in with ${escapeHtml(name)}</button>
</form>`;
  } else {
    form = `<form method="post" action="${action}/start">
<input type="hidden" name="platform" value="${entry.platform}">
<button type="submit">Sign in with ${escapeHtml(name)}</button>
</form>`;
  }
  return `<section class="platform" aria-labelledby="${id}">
<h2 id="${id}">${escapeHtml(name)}</h2>
${state}${connected}${form}
</section>`;
}

/** The page of a usable link: each platform with what this link connected on it, then "Done". */
export function connectPage(token: string, page: ConnectLinkPage, notice: PageNotice | null, up: PageDepth = ''): string {
  const title = page.brand?.name ? `Connect your accounts to ${page.brand.name}` : 'Connect your accounts';
  const total = page.platforms.reduce((n, p) => n + p.accounts.length, 0);
  const status = notice ? `<p class="notice ${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}">${escapeHtml(notice.text)}</p>` : '';
  const body = `${status}
<p class="intro">Choose the accounts to connect. You sign in on each platform itself: this page never sees your password${page.platforms.some((p) => p.connectsWith === 'app_password') ? ' (for Bluesky, an app password you can revoke at any time)' : ''}.</p>
${page.platforms.map((entry) => platformSection(token, entry, up)).join('\n')}
<form method="post" action="${up}${encodeURIComponent(token)}/done" class="done">
<p>${total ? `${total} account${total === 1 ? '' : 's'} connected.` : 'No account connected yet.'}</p>
<button type="submit" class="primary">Done</button>
</form>
<p class="muted small">This link works until ${escapeHtml(new Date(page.expiresAt).toUTCString())}.</p>`;
  return layout(title, page.brand, body, up);
}

/** A link that cannot be used: why, and what to do. */
export function unusablePage(code: string, up: PageDepth = ''): string {
  const reasons: Record<string, [string, string]> = {
    connect_link_expired: ['This link has expired', 'Ask whoever sent it for a new link. Nothing was connected.'],
    connect_link_revoked: ['This link was withdrawn', 'Whoever sent it has revoked it. Ask them for a new link. Nothing was connected.'],
    connect_link_invalid: ['This link is not valid', 'It may have been copied incompletely or changed. Ask whoever sent it for a new link. Nothing was connected.'],
  };
  const [title, text] = reasons[code] ?? ['This page is not available', 'Try again later.'];
  return layout(title, null, `<p class="notice error" role="alert">${escapeHtml(text)}</p>`, up);
}
