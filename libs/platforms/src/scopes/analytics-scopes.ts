import type { Platform } from '@app/contracts';

/**
 * The scopes sign-in asks for analytics alone (the metrics calls' rows in this folder's tables):
 * an account connected before analytics asked for them still publishes and answers comments, so
 * lacking one does NOT make it needs_reauth; its metrics calls answer `insufficient_platform_scope`
 * (INSUFFICIENT_PLATFORM_SCOPE in @app/contracts) until the user signs in again. Every other scope a
 * sign-in asks for is essential (publishing, comments, identity). Platforms without an entry read
 * their numbers with scopes they already asked for (X, Bluesky, Mastodon, YouTube, Pinterest).
 */
export const ANALYTICS_ONLY_SCOPES: Record<Platform, readonly string[]> = {
  x: [],
  facebook: ['read_insights'],
  instagram: ['instagram_manage_insights'],
  threads: ['threads_manage_insights'],
  linkedin: ['rw_organization_admin', 'r_member_postAnalytics', 'r_member_profileAnalytics'],
  bluesky: [],
  mastodon: [],
  tiktok: ['user.info.stats'],
  youtube: [],
  pinterest: [],
};

/** Whether a scope is asked for analytics alone (its lack leaves the account connected). */
export function isAnalyticsOnlyScope(platform: Platform, scope: string): boolean {
  return ANALYTICS_ONLY_SCOPES[platform].includes(scope);
}
