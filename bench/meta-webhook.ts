/** One new comment under a Page post, as a Page feed change carries it. */
export interface FeedComment {
  commentId: string;
  text: string;
  author: string;
}

/**
 * A Page feed webhook as Meta sends it: new comments under a Page post (object `page`, field
 * `feed`, item `comment`, verb `add`; https://developers.facebook.com/docs/pages-api/webhooks-for-pages
 * and the Graph API Webhooks reference for the Page `feed` field), one change each. Meta batches
 * up to 1000 changes in one delivery (https://developers.facebook.com/docs/graph-api/webhooks/getting-started/,
 * Event Notifications). The entry id is the Page, the first part of the Page post's id
 * `<page id>_<post id>`. Sign it with metaSignature (X-Hub-Signature-256).
 */
export function feedWebhook(platformPostId: string, comments: FeedComment[]): string {
  const time = Math.floor(Date.now() / 1000);
  const changes = comments.map(({ commentId, text, author }) => ({
    field: 'feed',
    value: { item: 'comment', verb: 'add', post_id: platformPostId, comment_id: commentId, message: text, from: { id: author, name: author }, created_time: time },
  }));
  return JSON.stringify({ object: 'page', entry: [{ id: platformPostId.split('_')[0], time, changes }] });
}
