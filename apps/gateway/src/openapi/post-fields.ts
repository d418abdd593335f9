import { ApiPropertyOptions } from '@nestjs/swagger';
import { LIMITS, PLATFORMS } from '@app/contracts';

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
    description: `Up to ${LIMITS.contentMaxChars.toLocaleString('en')} characters (Unicode code points). Required unless mediaUrls is given.`,
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
} satisfies Record<string, ApiPropertyOptions>;
