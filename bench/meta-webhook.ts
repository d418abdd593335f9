/**
 * A Page feed webhook as Meta sends it: one new comment under a Page post (object `page`, field
 * `feed`, item `comment`, verb `add`; https://developers.facebook.com/docs/pages-api/webhooks-for-pages
 * and the Graph API Webhooks reference for the Page `feed` field). The entry id is the Page, the
 * first part of the Page post's id `<page id>_<post id>`. Sign it with metaSignature
 * (X-Hub-Signature-256).
 */
export function feedWebhook(platformPostId: string, commentId: string, text: string, author: string): string {
  const value = { item: 'comment', verb: 'add', post_id: platformPostId, comment_id: commentId, message: text, from: { id: author, name: author }, created_time: Math.floor(Date.now() / 1000) };
  return JSON.stringify({ object: 'page', entry: [{ id: platformPostId.split('_')[0], time: Math.floor(Date.now() / 1000), changes: [{ field: 'feed', value }] }] });
}
