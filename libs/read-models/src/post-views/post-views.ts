/** Name of the post_views projection: its checkpoint and its notifications. */
export const POST_VIEWS_PROJECTION = 'post_views';
