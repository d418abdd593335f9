import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { APPROVAL_STATES, ApprovalState, PostApproval, CreatePostResponse, LIMITS, PlatformOptions, PLATFORMS, POST_STATUSES, PostDetail, PostListItem, PostOverrides, PostRecordedResponse, PostStatus, PublishResult, ResolvedAccountEcho, ThreadPartResult, FirstCommentResult } from '@app/contracts';
import { POST_FIELDS } from '../post-fields';
import { PostMetricsSummarySchema } from './analytics.schemas';
import { NextCursorProperty } from './list-page.schema';

/*
 * Response shapes of the posts endpoints, for the document. Each class
 * implements the contract's interface, so a field added there and not here
 * (or typed differently) fails the type check.
 */

const isoDateTime = { type: 'string', format: 'date-time' } as const;

/** One item posted after an account's post (a thread part, a first comment): its platform id and url once posted, or why it failed. */
function itemOutcome(idField: 'platformPostId' | 'platformCommentId', indexDescription: string) {
  return {
    type: 'object',
    required: ['index', 'status'],
    properties: {
      index: { type: 'integer', description: indexDescription },
      status: { type: 'string', enum: ['posted', 'failed'] },
      [idField]: { type: 'string', description: "when posted: its id on the platform" },
      url: { type: 'string', description: 'when posted: its permalink, as the platform gave it' },
      error: { type: 'object', description: 'when failed', properties: { code: { type: 'string' }, message: { type: 'string' }, retryable: { type: 'boolean' } } },
    },
  };
}

export class PublishErrorSchema {
  @ApiProperty({
    description:
      "the platform's or the publisher's error code, e.g. rate_limited; outcome_unknown: the post may be live (its call may have gone out), check the account before retrying; publish_abandoned: given up before the platform was called, nothing was sent, safe to retry",
  })
  code!: string;
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

/** A post held for review (README, Approvals). */
export class PostApprovalSchema implements PostApproval {
  @ApiProperty({ enum: APPROVAL_STATES, description: 'pending: not published until approved (a scheduled post due while pending fails with approval_missed)' }) state!: ApprovalState;
  @ApiProperty({ description: 'the key id that asked for review (pending), or that approved or rejected' }) by!: string;
  @ApiProperty(isoDateTime) at!: string;
  @ApiProperty({ type: 'string', nullable: true, description: "the reviewer's note" }) note!: string | null;
}

export class CreatedPostSchema {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: POST_STATUSES }) status!: PostStatus;
  @ApiProperty({ ...isoDateTime, nullable: true }) scheduledAt!: string | null;
  @ApiProperty({ enum: PLATFORMS, isArray: true }) platforms!: string[];
  @ApiPropertyOptional({ type: PostApprovalSchema, description: 'present when the post is held for review' }) approval?: PostApprovalSchema;
}

/** The answer of create, publish, retry and edit. */
export class CreatePostResponseSchema implements CreatePostResponse {
  @ApiProperty({ type: CreatedPostSchema }) post!: CreatedPostSchema;
  @ApiProperty({ type: [ResolvedAccountSchema], description: 'what the request resolved to' }) accounts!: ResolvedAccountSchema[];
  @ApiProperty({ type: [PublishResultSchema], description: 'one entry per targeted account once published; empty for a draft or a scheduled post' })
  results!: PublishResultSchema[];
  @ApiProperty({ description: 'human-readable summary of the outcome' }) note!: string;
}

export class RecordedPostSchema {
  @ApiProperty({ format: 'uuid', description: 'the post id; the Location header is its url' }) id!: string;
}

export class PostRecordedResponseSchema implements PostRecordedResponse {
  @ApiProperty({ type: RecordedPostSchema }) post!: RecordedPostSchema;
  @ApiProperty({ description: 'why only the id: the write is recorded, the read model does not show it yet' }) note!: string;
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
  @ApiPropertyOptional({ type: PostApprovalSchema, description: 'present when the post was held for review' }) approval?: PostApprovalSchema;
  @ApiProperty({ type: PostMetricsSummarySchema, nullable: true, description: "the post's numbers summed over its accounts (GET /api/v1/posts/{id}/metrics for each); null until a first collection" })
  metrics!: PostMetricsSummarySchema | null;
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
  @ApiPropertyOptional({ type: 'array', items: POST_FIELDS.thread.items, description: 'only when the post has a thread: its parts as given' })
  thread?: Array<{ content: string; mediaUrls: string[]; altText?: Array<string | null> }>;
  @ApiPropertyOptional({ description: 'only when over-long content is split into a numbered thread (see autoSplit on create)' }) autoSplit?: boolean;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: {
      type: 'array',
      items: itemOutcome('platformPostId', "the part's place after the post: 0 is the first part after it"),
    },
    description: 'only once some thread part was recorded: per account id, each recorded part in order (a failed part stops the thread; POST /retry resumes it)',
    example: { '0b6f2c1e-1d7a-4c55-9a1e-3f1f2b6a9c10': [{ index: 0, status: 'posted', platformPostId: '1790000000000000002', url: 'https://x.com/acme/status/1790000000000000002' }] },
  })
  threadResults?: Record<string, ThreadPartResult[]>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'array', items: itemOutcome('platformCommentId', "the first comment's place in the account's firstComments") },
    description:
      'only once some first comment was recorded: per account id, each recorded first comment in order (one not listed is not sent yet; after a failed one the later ones fail as comment_skipped; POST /retry posts them again only with the account)',
    example: { '0b6f2c1e-1d7a-4c55-9a1e-3f1f2b6a9c10': [{ index: 0, status: 'failed', error: { code: 'content_too_long', message: '…', retryable: false } }] },
  })
  firstCommentResults?: Record<string, FirstCommentResult[]>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: POST_FIELDS.overrides.additionalProperties,
    description: 'only when the post has overrides: as stored, keyed by platform id or by account id (an account reference is stored as the id of the account it names)',
    example: { x: { content: 'Launch day! 🚀' } },
  })
  overrides?: PostOverrides;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: POST_FIELDS.platformOptions.additionalProperties,
    description: 'only when the post has platform options: per platform id, as given on create or the last edit',
    example: { facebook: { placement: 'reel' } },
  })
  platformOptions?: PlatformOptions;
  @ApiProperty({ description: 'the post\'s version; the ETag header carries it quoted, for If-Match' }) version!: number;
}

export class PostDetailEnvelopeSchema {
  @ApiProperty({ type: PostDetailSchema }) post!: PostDetailSchema;
}
