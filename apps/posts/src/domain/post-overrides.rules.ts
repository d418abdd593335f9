import { DomainError, isPlatform, OverridablePost, overrideKeysFor, PostOverride, PostOverrides, publicationFor, TargetAccount } from '@app/contracts';
import { mediaRefs } from '@app/media';
import { publishLimitRefusal } from '@app/platforms/content/publish-limits';
import { checkAltText, checkContent, checkContentLength, checkFirstComments, checkMediaUrls } from './post-content.rules';
import { refusalWithin } from './refusal-within';

/**
 * The rules of `overrides` (what a platform or an account publishes instead of the post's
 * fields). Each override passes the create rules of the fields it gives; then what each
 * targeted account would publish (publicationFor, the function the publisher sends by) must
 * have content or media, and, where an override shapes it, keep its platform's limits as the
 * connector counts them. Every refusal names the override's key as the request wrote it.
 */

/** The request's overrides checked and keyed as stored: platform ids as they are, account references by account id. */
export function checkOverrides(requested: Record<string, PostOverride>, accounts: TargetAccount[]): { overrides: PostOverrides; requestKeys: Record<string, string> } {
  const overrides: PostOverrides = {};
  const requestKeys: Record<string, string> = {};
  for (const [key, override] of Object.entries(requested)) {
    const stored = storedKey(key, accounts);
    if (requestKeys[stored] !== undefined) {
      throw new DomainError('invalid_override_key', `overrides ${JSON.stringify(requestKeys[stored])} and ${JSON.stringify(key)} name the same ${isPlatform(stored) ? 'platform' : 'account'}`, {
        details: { override: key, sameAs: requestKeys[stored] },
      });
    }
    overrides[stored] = refusalWithin(`overrides ${JSON.stringify(key)}`, { override: key }, () => checkOverride(override));
    requestKeys[stored] = key;
  }
  return { overrides, requestKeys };
}

/**
 * What every account publishes is publishable: content or media for each (the top-level content
 * may be left out when overrides give every account one), and within its platform's limits
 * wherever an override shaped it. A post without overrides keeps the create rule as it was: its
 * platforms' limits are each account's outcome at publication.
 */
export function checkPublications(post: OverridablePost, accounts: TargetAccount[], requestKeys: Record<string, string> = {}): void {
  if (!post.overrides || Object.keys(post.overrides).length === 0) {
    checkContent(post.content, post.mediaUrls);
    return;
  }
  checkContentLength(post.content);
  for (const account of accounts) {
    const keys = overrideKeysFor(post, account);
    const publication = publicationFor(post, account);
    const label = `${account.platform}:${account.handle}`;
    if (keys.length === 0) {
      if (publication.content.trim() === '' && publication.mediaUrls.length === 0) {
        throw new DomainError('content_required', `${label} has no content: give content, mediaUrls, or an override for it`, { details: { accountId: account.accountId } });
      }
      continue;
    }
    const key = requestKeys[keys[keys.length - 1]] ?? keys[keys.length - 1];
    refusalWithin(`overrides ${JSON.stringify(key)}`, { override: key }, () => checkContent(publication.content, publication.mediaUrls));
    const refusal = publishLimitRefusal(account.platform, { content: publication.content, media: mediaRefs(publication.mediaUrls, publication.altText) });
    if (refusal) {
      throw new DomainError('override_not_publishable', `overrides ${JSON.stringify(key)}: ${label} would be refused by its platform: ${refusal.message}`, {
        details: { override: key, accountId: account.accountId, platform: account.platform, reason: refusal.code },
      });
    }
  }
}

/** A platform id stays; `platform:@handle` or an account id becomes the id of the targeted account it names. */
function storedKey(key: string, accounts: TargetAccount[]): string {
  const trimmed = key.trim().toLowerCase();
  if (isPlatform(trimmed)) {
    if (accounts.some((account) => account.platform === trimmed)) return trimmed;
    throw new DomainError('invalid_override_key', `overrides ${JSON.stringify(key)}: the post targets no ${trimmed} account`, { details: { override: key } });
  }
  const qualified = /^([a-z]+):@?(.+)$/.exec(trimmed);
  const named = accounts.find((account) =>
    qualified && isPlatform(qualified[1]) ? account.platform === qualified[1] && account.handle.replace(/^@/, '').toLowerCase() === qualified[2] : account.accountId === key.trim(),
  );
  if (!named) {
    throw new DomainError('invalid_override_key', `overrides ${JSON.stringify(key)} names neither a platform nor an account the post targets (platform id, platform:@handle or account id)`, {
      details: { override: key },
    });
  }
  return named.accountId;
}

/** The create rules of each field the override gives; its alt text pairs with its own mediaUrls. */
function checkOverride(override: PostOverride): PostOverride {
  if (override.content !== undefined) checkContentLength(override.content);
  if (override.mediaUrls !== undefined) checkMediaUrls(override.mediaUrls);
  const altText = override.altText === undefined ? undefined : checkAltText(override.altText, override.mediaUrls ?? []);
  if (override.firstComments !== undefined) checkFirstComments(override.firstComments);
  const checked: PostOverride = { content: override.content, mediaUrls: override.mediaUrls, altText, firstComments: override.firstComments };
  return Object.fromEntries(Object.entries(checked).filter(([, value]) => value !== undefined));
}
