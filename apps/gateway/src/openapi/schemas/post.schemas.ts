import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CreatePostResponse, LIMITS, PLATFORMS, POST_STATUSES, PostDetail, PostListItem, PostStatus, PublishResult, ResolvedAccountEcho } from '@app/contracts';
import { NextCursorProperty } from './list-page.schema';

/*
 * Response shapes of the posts endpoints, for the document. Each class
 * implements the contract's interface, so a field added there and not here
 * (or typed differently) fails the type check.
 */

const isoDateTime = { type: 'string', format: 'date-time' } as const;

export class PublishErrorSchema {
  @ApiProperty({ description: "the platform's or the publisher's error code, e.g. rate_limited, outcome_unknown" }) code!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ description: 'whether a retry may succeed' }) retryable!: boolean;
}

/** An entry of results: one per targeted account. */
export class PublishResultSchema implements PublishResult {
  @ApiProperty({ enum: PLATFORMS }) platform!: string;
  @ApiProperty({ description: 'match entries on this: two accounts on one platform give two entries' }) accountId!: string;
  @ApiProperty({ description: 'the account handle' }) accountLabel!: string;
  @ApiProperty() success!: boolean;
  @ApiPropertyOptional({ description: "the platform's id of the published item; when success is true" }) postId?: string;
  @ApiPropertyOptional({ description: 'link to the published item; when success is true' }) url?: string;
  @ApiPropertyOptional({ type: PublishErrorSchema, description: 'why this account failed; when success is false' }) error?: PublishErrorSchema;
}

export class ResolvedAccountSchema implements ResolvedAccountEcho {
  @ApiProperty() accountId!: string;
  @ApiProperty({ enum: PLATFORMS }) platform!: string;
  @ApiProperty({ description: 'the handle' }) account!: string;
}

export class CreatedPostSchema {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: POST_STATUSES }) status!: PostStatus;
  @ApiProperty({ ...isoDateTime, nullable: true }) scheduledAt!: string | null;
  @ApiProperty({ enum: PLATFORMS, isArray: true }) platforms!: string[];
}

/** The answer of create, publish, retry and edit. */
export class CreatePostResponseSchema implements CreatePostResponse {
  @ApiProperty({ type: CreatedPostSchema }) post!: CreatedPostSchema;
  @ApiProperty({ type: [ResolvedAccountSchema], description: 'what the request resolved to' }) accounts!: ResolvedAccountSchema[];
  @ApiProperty({ type: [PublishResultSchema], description: 'one entry per targeted account once published; empty for a draft or a scheduled post' })
  results!: PublishResultSchema[];
  @ApiProperty({ description: 'human-readable summary of the outcome' }) note!: string;
}

export class PostListItemSchema implements PostListItem {
  @ApiProperty() id!: string;
  @ApiProperty({ description: `a body over ${LIMITS.listContentPreviewChars} characters is shortened with an ellipsis (…)` }) content!: string;
  @ApiProperty({ enum: PLATFORMS, isArray: true }) platforms!: string[];
  @ApiProperty({ enum: POST_STATUSES }) status!: PostStatus;
  @ApiProperty({ ...isoDateTime, nullable: true }) scheduledAt!: string | null;
  @ApiProperty({ ...isoDateTime, nullable: true }) publishedAt!: string | null;
  @ApiProperty({ type: [PublishResultSchema], description: 'per-account outcomes; empty for a post not yet published' }) results!: PublishResultSchema[];
  @ApiProperty({ type: 'string', nullable: true }) errorMessage!: string | null;
  @ApiProperty(isoDateTime) createdAt!: string;
}

export class PostListSchema {
  @ApiProperty({ type: [PostListItemSchema], description: 'newest first' }) posts!: PostListItemSchema[];
  @NextCursorProperty() nextCursor!: string | null;
}

/** One post in full: the list item with the whole body and what it targets. */
export class PostDetailSchema extends PostListItemSchema implements PostDetail {
  @ApiProperty({ description: 'the whole body' }) declare content: string;
  @ApiProperty({ type: [ResolvedAccountSchema] }) accounts!: ResolvedAccountSchema[];
  @ApiProperty({ type: [String] }) mediaUrls!: string[];
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', nullable: true },
    description: 'only when some media item has alt text: one entry per mediaUrls entry, null for an item without',
  })
  altText?: Array<string | null>;
  @ApiProperty({ type: [String] }) firstComments!: string[];
  @ApiProperty({ description: 'the post\'s version; the ETag header carries it quoted, for If-Match' }) version!: number;
}

export class PostDetailEnvelopeSchema {
  @ApiProperty({ type: PostDetailSchema }) post!: PostDetailSchema;
}
