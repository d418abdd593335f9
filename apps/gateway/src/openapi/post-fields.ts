import { ApiPropertyOptions } from '@nestjs/swagger';
import { LIMITS, PLATFORMS, REPLY_CHAIN_PLATFORMS, THREAD_MAX_PARTS } from '@app/contracts';

/**
 * How the post fields of the create and edit bodies are documented: one home
 * for both DTOs, with the limits read from LIMITS. Every field is optional in
 * the body's shape; which are required together is a rule with its own code.
 */
export const POST_FIELDS = {
  content: {
    type: String,
    nullable: true,
    maxLength: LIMITS.contentMaxChars,
    description: `Up to ${LIMITS.contentMaxChars.toLocaleString('en')} characters (Unicode code points). Required unless mediaUrls is given, or overrides give every account content.`,
  },
  accounts: {
    type: [String],
    nullable: true,
    description: `The accounts to publish to (up to ${LIMITS.accountsPerPost}; duplicates ignored): \`platform:@handle\`, \`@handle\` when that handle is on one platform only, or an account id from GET /api/v1/accounts. Send accounts or platforms, not both.`,
    example: ['x:@acme', 'facebook:@acme'],
  },
  accountIds: { type: [String], nullable: true, deprecated: true, description: 'Deprecated synonym of accounts.' },
  platforms: {
    type: [String],
    nullable: true,
    description: `Shorthand for accounts: platform ids (${PLATFORMS.join(', ')}), each resolving only while the platform has exactly one connected account.`,
  },
  scheduledAt: {
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'ISO 8601 datetime with a zone (Z or ±hh:mm), in the future. Omit for a draft.',
  },
  mediaUrls: { type: [String], nullable: true, maxItems: LIMITS.mediaUrlsPerPost, description: `Up to ${LIMITS.mediaUrlsPerPost} absolute https:// URLs.` },
  altText: {
    type: 'array',
    items: { type: 'string', nullable: true, maxLength: LIMITS.altTextMaxChars },
    nullable: true,
    maxItems: LIMITS.mediaUrlsPerPost,
    description:
      `Alt text per media item, in the order of mediaUrls: one entry per mediaUrls entry, each up to ${LIMITS.altTextMaxChars.toLocaleString('en')} characters ` +
      '(X\'s limit, the smallest of the platforms), null or "" for an item without; [] for none. Only with mediaUrls. ' +
      'Sent to each platform that takes alt text. In an edit, altText alone describes the current mediaUrls, and new mediaUrls without altText have none.',
    example: ['A red bicycle against a white wall', null],
  },
  firstComments: {
    type: [String],
    nullable: true,
    maxItems: LIMITS.firstCommentsPerPost,
    description: `Up to ${LIMITS.firstCommentsPerPost} comments posted under the post once live, in order; each 1 to ${LIMITS.firstCommentMaxChars.toLocaleString('en')} characters.`,
  },
  overrides: {
    type: 'object',
    nullable: true,
    additionalProperties: {
      type: 'object',
      additionalProperties: false,
      properties: {
        content: { type: 'string', maxLength: LIMITS.contentMaxChars },
        mediaUrls: { type: 'array', items: { type: 'string' }, maxItems: LIMITS.mediaUrlsPerPost },
        altText: { type: 'array', items: { type: 'string', nullable: true }, maxItems: LIMITS.mediaUrlsPerPost },
        firstComments: { type: 'array', items: { type: 'string' }, maxItems: LIMITS.firstCommentsPerPost },
      },
    },
    description:
      'What a platform or one account publishes instead of the post\'s fields, keyed by platform id (`x`) or account (`x:@acme`, an account id); ' +
      'the account\'s key wins over its platform\'s, field by field, and a field left out is inherited. altText pairs with the override\'s own mediaUrls. ' +
      'Top-level content may be left out when every account gets content (or media) from an override. Each override is checked with the rules of the ' +
      'fields it gives and against its platform\'s limits as that platform counts them (X: 280 weighted characters...), before anything is created: ' +
      'invalid_override_key, override_not_publishable, or the field\'s own code, with details.override naming the key. In an edit, overrides replaces them all ({} removes them).',
    example: { x: { content: 'Short for X: https://acme.example/launch' }, 'linkedin:@acme': { content: 'The long version for LinkedIn…', firstComments: ['Details in the comments'] } },
  },
  platformOptions: {
    type: 'object',
    nullable: true,
    additionalProperties: { type: 'object', additionalProperties: true },
    description:
      'Per platform id, that platform\'s publishing options, named and valued as its API documents them: ' +
      'x `reply_settings` (following, mentionedUsers, subscribers, verified); ' +
      'mastodon `visibility` (public, unlisted, private, direct), `spoiler_text`, `language` (ISO 639); ' +
      'linkedin `visibility` (PUBLIC, CONNECTIONS, LOGGED_IN); ' +
      'threads `reply_control` (everyone, accounts_you_follow, mentioned_only, parent_post_author_only, followers_only); ' +
      'youtube `title` (≤ 100, no < >), `privacyStatus` (private, public, unlisted), `tags` (≤ 500 characters in all), `categoryId`, `madeForKids` (boolean); ' +
      'tiktok `privacy_level` (PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY — one the creator may use), `disable_comment`, `disable_duet`, `disable_stitch` (booleans); ' +
      'pinterest `boardId` (default: the board the account was connected with), `link`, `title` (≤ 100); ' +
      'facebook and instagram `placement` (feed — the default —, reel: one video, story: one photo or video, its text not shown). ' +
      'A platform the post does not target, an unknown option or a value outside these is platform_option_invalid (details.platform, details.option), as is a publication its options make break its platform\'s limits (details.reason: a reel or story of other than one media item, a Mastodon spoiler_text past 500 characters with the text). ' +
      'In an edit, platformOptions replaces them all ({} removes them).',
    example: { x: { reply_settings: 'following' }, youtube: { title: 'Launch day', privacyStatus: 'unlisted', tags: ['launch'], madeForKids: false } },
  },
  thread: {
    type: 'array',
    nullable: true,
    maxItems: THREAD_MAX_PARTS,
    items: {
      type: 'object',
      required: ['content'],
      additionalProperties: false,
      properties: {
        content: { type: 'string' },
        mediaUrls: { type: 'array', items: { type: 'string' }, maxItems: LIMITS.mediaUrlsPerPost },
        altText: { type: 'array', items: { type: 'string', nullable: true } },
      },
    },
    description:
      `Up to ${THREAD_MAX_PARTS} parts published after the post, in order (Buffer's and Typefully's bound). On ${REPLY_CHAIN_PLATFORMS.join(', ')} they form a reply chain ` +
      '(each part replies to the one before it, the first to the post; each may carry media); elsewhere each part is a comment under the post (text only, ' +
      `up to ${LIMITS.firstCommentMaxChars.toLocaleString('en')} characters; a platform that cannot comment fails the parts for that account with comments_not_supported). Each part is checked with the ` +
      'create rules of content and media (that rule\'s code, details.threadPart) and with each account\'s platform limits (thread_part_not_publishable). ' +
      'A part that fails stops that account\'s thread; POST /retry resumes it after its last posted part. The post\'s result per account stays the first part\'s; ' +
      'GET /api/v1/posts/{id} lists every part\'s id in threadResults. In an edit, thread replaces the whole thread ([] removes it).',
    example: [{ content: 'Part two: what changed.' }, { content: 'Part three, with a picture.', mediaUrls: ['https://cdn.example.com/chart.png'], altText: ['Sign-ups by week'] }],
  },
  autoSplit: {
    type: Boolean,
    nullable: true,
    description:
      `Opt-in: on ${REPLY_CHAIN_PLATFORMS.join(', ')}, content longer than the platform allows (counted its own way: X weighted characters, Bluesky graphemes, ` +
      'Threads and Mastodon characters) is split at sentence boundaries (then words) into a numbered thread ("… 1/3"), ahead of any thread parts. ' +
      'Other platforms keep their length refusal.',
  },
} satisfies Record<string, ApiPropertyOptions>;
