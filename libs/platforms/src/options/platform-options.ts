import type { Platform, PlatformOptionValues } from '@app/contracts';
import { META_PLACEMENT } from './meta-placement';
import { choice, flag, OptionsSchema, OptionValues, optionValueProblem } from './option-rules';

/*
 * Each platform's publishing options (`platformOptions.<platform>` of a post), named and valued as
 * the platform's own API documents them; a connector sends each as that documented field.
 */

/** X "Create or Edit Post" (https://docs.x.com/x-api/posts/create-or-edit-post): `reply_settings`, who may reply (absent: everyone). */
export const X_OPTIONS = { reply_settings: choice(['following', 'mentionedUsers', 'subscribers', 'verified']) } satisfies OptionsSchema;

/**
 * Mastodon "Post a new status" (https://docs.joinmastodon.org/methods/statuses/#create): `visibility`
 * public, unlisted, private or direct; `spoiler_text`, the content warning shown before the text
 * (it counts toward the status's 500 characters); `language`, an ISO 639 code.
 */
export const MASTODON_OPTIONS = {
  visibility: choice(['public', 'unlisted', 'private', 'direct']),
  spoiler_text: { kind: 'text', maxLength: 500 },
  language: { kind: 'text', maxLength: 3, pattern: /^[a-z]{2,3}$/, describe: 'an ISO 639 language code (two or three lowercase letters, e.g. en)' },
} satisfies OptionsSchema;

/**
 * LinkedIn Posts API, Post schema (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api):
 * `visibility` PUBLIC, CONNECTIONS (members only) or LOGGED_IN (CONTAINER is for group posts, which this service does not make).
 */
export const LINKEDIN_OPTIONS = { visibility: choice(['PUBLIC', 'CONNECTIONS', 'LOGGED_IN']) } satisfies OptionsSchema;

/**
 * Threads "Reply Management", Control Who Can Reply (https://developers.facebook.com/docs/threads/reply-management):
 * `reply_control` on the media container: everyone, accounts_you_follow, mentioned_only,
 * parent_post_author_only or followers_only.
 */
export const THREADS_OPTIONS = { reply_control: choice(['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only']) } satisfies OptionsSchema;

/**
 * YouTube `videos` resource (https://developers.google.com/youtube/v3/docs/videos): `snippet.title`
 * (at most 100 characters, no < or >; absent: the content's first line), `status.privacyStatus`
 * private, public or unlisted (absent: public), `snippet.tags` (at most 500 characters in all),
 * `snippet.categoryId` (a video category id, see videoCategories.list), `status.selfDeclaredMadeForKids`.
 */
export const YOUTUBE_OPTIONS = {
  title: { kind: 'text', maxLength: 100, forbidden: /[<>]/ },
  privacyStatus: choice(['private', 'public', 'unlisted']),
  tags: { kind: 'list', maxItems: 500, maxLength: 500 },
  categoryId: { kind: 'text', maxLength: 10, pattern: /^\d+$/, describe: 'a YouTube video category id (digits, e.g. 22)' },
  madeForKids: flag(),
} satisfies OptionsSchema;

/**
 * TikTok Content Posting API, Direct Post (https://developers.tiktok.com/doc/content-posting-api-reference-direct-post):
 * `post_info.privacy_level` PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR or SELF_ONLY
 * (absent: PUBLIC_TO_EVERYONE) — which of them the creator may use, Query Creator Info's
 * `privacy_level_options` tells (https://developers.tiktok.com/doc/content-posting-api-reference-query-creator-info),
 * checked when publishing; `disable_comment`, and for videos `disable_duet` and `disable_stitch`.
 */
export const TIKTOK_OPTIONS = {
  privacy_level: choice(['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY']),
  disable_comment: flag(),
  disable_duet: flag(),
  disable_stitch: flag(),
} satisfies OptionsSchema;

/**
 * Pinterest "Create Pin" (https://developers.pinterest.com/docs/api/v5/pins-create): `board_id` (absent:
 * the board the account was connected with), `link` (the Pin's destination, at most 2,048 characters),
 * `title` (at most 100 characters; absent: the content's first line).
 */
export const PINTEREST_OPTIONS = {
  boardId: { kind: 'text', maxLength: 32, pattern: /^\d+$/, describe: 'a Pinterest board id (digits)' },
  link: { kind: 'text', maxLength: 2_048, pattern: /^https?:\/\/\S+$/, describe: 'an http(s) URL' },
  title: { kind: 'text', maxLength: 100 },
} satisfies OptionsSchema;

/** Facebook Page posts: `placement` feed, reel or story (see meta-placement.ts for what each is and takes). */
export const FACEBOOK_OPTIONS = { placement: META_PLACEMENT } satisfies OptionsSchema;

/** Instagram posts: `placement` feed, reel or story (see meta-placement.ts). */
export const INSTAGRAM_OPTIONS = { placement: META_PLACEMENT } satisfies OptionsSchema;

export type XOptions = OptionValues<typeof X_OPTIONS>;
export type MastodonOptions = OptionValues<typeof MASTODON_OPTIONS>;
export type LinkedInOptions = OptionValues<typeof LINKEDIN_OPTIONS>;
export type ThreadsOptions = OptionValues<typeof THREADS_OPTIONS>;
export type YouTubeOptions = OptionValues<typeof YOUTUBE_OPTIONS>;
export type TikTokOptions = OptionValues<typeof TIKTOK_OPTIONS>;
export type PinterestOptions = OptionValues<typeof PINTEREST_OPTIONS>;
export type FacebookOptions = OptionValues<typeof FACEBOOK_OPTIONS>;
export type InstagramOptions = OptionValues<typeof INSTAGRAM_OPTIONS>;

/** The options each platform takes; a platform absent here takes none. */
export const PLATFORM_OPTIONS: Partial<Record<Platform, OptionsSchema>> = {
  x: X_OPTIONS,
  mastodon: MASTODON_OPTIONS,
  linkedin: LINKEDIN_OPTIONS,
  threads: THREADS_OPTIONS,
  youtube: YOUTUBE_OPTIONS,
  tiktok: TIKTOK_OPTIONS,
  pinterest: PINTEREST_OPTIONS,
  facebook: FACEBOOK_OPTIONS,
  instagram: INSTAGRAM_OPTIONS,
};

/** The first option of `options` that `platform` does not take, or whose value it does not document; null when all are good. */
export function platformOptionProblem(platform: Platform, options: Record<string, unknown>): { option: string; message: string } | null {
  const schema = PLATFORM_OPTIONS[platform] ?? {};
  for (const [option, value] of Object.entries(options)) {
    const rule = schema[option];
    if (!rule) {
      const known = Object.keys(schema);
      return { option, message: known.length > 0 ? `${platform} takes no option ${option} (it takes ${known.join(', ')})` : `${platform} takes no options` };
    }
    const problem = optionValueProblem(rule, value);
    if (problem) return { option, message: `${platform} option ${option} ${problem}` };
  }
  return null;
}

/** A connector's view of the options its publish call got (checked when the post was written). */
export function optionsOf<Options>(request: { options?: PlatformOptionValues }): Options {
  return (request.options ?? {}) as Options;
}
