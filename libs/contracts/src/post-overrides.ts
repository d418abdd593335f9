import type { AltTexts, TargetAccount } from './post-events';

/**
 * What one platform, or one account, publishes instead of the post's own fields. Each field
 * given replaces the post's; a field left out is inherited. `altText` pairs with the
 * override's own `mediaUrls` (media replaced without it have none).
 */
export interface PostOverride {
  content?: string;
  mediaUrls?: string[];
  altText?: AltTexts;
  firstComments?: string[];
}

/**
 * A post's overrides as stored: keyed by platform id (`x`) or by account id, the request's
 * `platform:@handle` keys having been resolved to the account's id when the post was written,
 * so a later rename never detaches an override.
 */
export type PostOverrides = Record<string, PostOverride>;

/** What one account publishes: the post's fields with its overrides applied. */
export interface AccountPublication {
  content: string;
  mediaUrls: string[];
  altText: AltTexts;
  firstComments: string[];
}

/** The fields of a post (or of a publication request) that an account's publication is made from. */
export interface OverridablePost {
  content: string;
  mediaUrls: string[];
  /** Absent from events written before alt text existed: none. */
  altText?: AltTexts;
  firstComments: string[];
  /** Absent from events written before overrides existed: none. */
  overrides?: PostOverrides;
}

/**
 * What `account` publishes: the post, then its platform's override, then its own (the more
 * specific wins, field by field). The one answer both the create and edit rules check and the
 * publisher sends, so what was validated is what goes out.
 */
export function publicationFor(post: OverridablePost, account: Pick<TargetAccount, 'accountId' | 'platform'>): AccountPublication {
  const base: AccountPublication = { content: post.content, mediaUrls: post.mediaUrls, altText: post.altText ?? [], firstComments: post.firstComments };
  return overridesOf(post, account).reduce<AccountPublication>(
    (publication, override) => ({
      content: override.content ?? publication.content,
      // Media and their alt texts go together: an override's media never take the descriptions of others.
      mediaUrls: override.mediaUrls ?? publication.mediaUrls,
      altText: override.mediaUrls !== undefined ? (override.altText ?? []) : publication.altText,
      firstComments: override.firstComments ?? publication.firstComments,
    }),
    base,
  );
}

/** The keys of the overrides that apply to `account`, least specific first (its platform's, then its own). */
export function overrideKeysFor(post: Pick<OverridablePost, 'overrides'>, account: Pick<TargetAccount, 'accountId' | 'platform'>): string[] {
  return [account.platform, account.accountId].filter((key) => post.overrides?.[key] !== undefined);
}

function overridesOf(post: OverridablePost, account: Pick<TargetAccount, 'accountId' | 'platform'>): PostOverride[] {
  return overrideKeysFor(post, account).map((key) => post.overrides![key]);
}
