export const POST_STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'partial', 'failed'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export function isPostStatus(value: unknown): value is PostStatus {
  return typeof value === 'string' && (POST_STATUSES as readonly string[]).includes(value);
}
