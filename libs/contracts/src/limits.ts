/** The spec's limits, in one place so rules and docs cannot drift apart. */
export const LIMITS = {
  contentMaxChars: 10_000,
  accountsPerPost: 10,
  mediaUrlsPerPost: 10,
  /**
   * X's limit ("Create Media metadata", https://docs.x.com/x-api/media/create-media-metadata: at most
   * 1,000 characters), the smallest of the platforms that take alt text: a longer one would fail there.
   */
  altTextMaxChars: 1_000,
  firstCommentsPerPost: 5,
  firstCommentMaxChars: 2_200,
  replyMaxChars: 2_200,
  listDefault: 20,
  listMax: 50,
  listContentPreviewChars: 500,
  overdueScheduledPostMs: 6 * 60 * 60 * 1000,
} as const;
