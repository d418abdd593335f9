import { PoolClient } from 'pg';
import { LIMITS, PostCreatedData } from '@app/contracts';
import { RecordedEvent } from '@app/event-store';

/** The list shows at most 500 characters of a body, then an ellipsis. */
export function contentPreview(content: string): string {
  const chars = Array.from(content);
  return chars.length > LIMITS.listContentPreviewChars ? `${chars.slice(0, LIMITS.listContentPreviewChars).join('')}…` : content;
}

/**
 * Applies one event to the post_views table, inside the projector's batch
 * transaction. Each statement is idempotent, so a replayed event changes nothing.
 */
export async function projectPostEvent(client: PoolClient, event: RecordedEvent): Promise<void> {
  switch (event.type) {
    case 'PostCreated': {
      const data = event.data as PostCreatedData;
      await client.query(
        `INSERT INTO post_views (id, workspace_id, content, content_preview, platforms, accounts, media_urls, first_comments,
                                 status, scheduled_at, created_at, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (id) DO NOTHING`,
        [
          data.postId,
          data.workspaceId,
          data.content,
          contentPreview(data.content),
          [...new Set(data.accounts.map((a) => a.platform))],
          JSON.stringify(data.accounts.map((a) => ({ accountId: a.accountId, platform: a.platform, account: a.handle }))),
          JSON.stringify(data.mediaUrls),
          JSON.stringify(data.firstComments),
          data.scheduledAt ? 'scheduled' : 'draft',
          data.scheduledAt,
          data.createdAt,
          Number(event.revision) + 1,
        ],
      );
      return;
    }
    default:
      return; // events of other aggregates, or not shown in this view
  }
}
