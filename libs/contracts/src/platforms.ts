/**
 * Platform identifiers the service knows. The spec shows instagram, x and facebook;
 * the rest are the platforms the design names connectors for.
 */
export const PLATFORMS = [
  'x',
  'facebook',
  'instagram',
  'linkedin',
  'threads',
  'bluesky',
  'mastodon',
  'tiktok',
  'youtube',
  'pinterest',
] as const;

export type Platform = (typeof PLATFORMS)[number];

export function isPlatform(value: unknown): value is Platform {
  return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value);
}
