import { Inject, Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { Platform } from '@app/contracts';
import { PG_POOL } from '@app/database';

/** One item a workspace's post put live on a platform: what comments sit under. */
export interface PublishedItem {
  workspaceId: string;
  postId: string;
  accountId: string;
  /** The account's handle as the post's result labels it. */
  handle: string;
  platform: Platform;
  platformPostId: string;
  postTitle: string | null;
  /** Comments the service itself posted under the post (first comments): never ingested. */
  ownCommentIds: string[];
}

/** The list shows a post by the start of its text. */
const TITLE_MAX_CHARS = 80;

/** The post's text shortened to a title; null for a post without text (media only). */
export function postTitleOf(content: string): string | null {
  const line = content.trim().split('\n')[0].trim();
  if (line === '') return null;
  const chars = Array.from(line);
  return chars.length > TITLE_MAX_CHARS ? `${chars.slice(0, TITLE_MAX_CHARS - 1).join('')}…` : line;
}

interface ItemRow {
  workspace_id: string;
  post_id: string;
  content_preview: string;
  own_comment_ids: string[];
  account_id: string;
  handle: string;
  platform_post_id: string;
}

/** Every successful entry of results on the platform, one row each. */
const ITEMS_SQL = `
  SELECT p.workspace_id, p.id AS post_id, p.content_preview, p.own_comment_ids, r->>'accountId' AS account_id, r->>'accountLabel' AS handle, r->>'postId' AS platform_post_id
  FROM post_views p CROSS JOIN LATERAL jsonb_array_elements(p.results) r
  WHERE r->>'platform' = $1 AND r @> '{"success": true}'`;

/**
 * The workspaces' published items, from the post_views read model (the results
 * entries with success: true carry the account and the platform's item id).
 */
@Injectable()
export class PublishedItems {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** Items of posts first published since `since` (older ones rarely get new comments). */
  async recent(platform: Platform, since: Date): Promise<PublishedItem[]> {
    const { rows } = await this.pool.query<ItemRow>(`${ITEMS_SQL} AND p.published_at >= $2 ORDER BY p.published_at DESC`, [platform, since]);
    return rows.map((row) => toItem(platform, row));
  }

  /** The items with this platform id (a webhook names the item, not the workspace). */
  async withPlatformId(platform: Platform, platformPostId: string): Promise<PublishedItem[]> {
    const { rows } = await this.pool.query<ItemRow>(`${ITEMS_SQL} AND r->>'postId' = $2 AND p.results @> $3::jsonb`, [
      platform,
      platformPostId,
      JSON.stringify([{ platform, postId: platformPostId, success: true }]),
    ]);
    return rows.map((row) => toItem(platform, row));
  }
}

function toItem(platform: Platform, row: ItemRow): PublishedItem {
  return {
    workspaceId: row.workspace_id,
    postId: row.post_id,
    accountId: row.account_id,
    handle: row.handle,
    platform,
    platformPostId: row.platform_post_id,
    postTitle: postTitleOf(row.content_preview),
    ownCommentIds: row.own_comment_ids,
  };
}
