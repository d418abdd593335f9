/** Name of the post_metrics projection (its checkpoint): items' latest numbers, each post's summary, the curves. */
export const POST_METRICS_PROJECTION = 'post_metrics';

/** Name of the account_metrics projection (its checkpoint): each account's follower count and its curve. */
export const ACCOUNT_METRICS_PROJECTION = 'account_metrics';
