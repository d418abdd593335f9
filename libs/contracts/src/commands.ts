import type { ErrorBody } from './error-codes';
import type { CreatePostBody, CreatePostResponse } from './post-api';

export interface CreatePostCommand {
  workspaceId: string;
  body: CreatePostBody;
  idempotencyKey: string | null;
}

export interface CreatePostReply {
  response: CreatePostResponse;
  /** Global position of the last event appended (or found, for a retry); the gateway waits for the read model to pass it. */
  position: string | null;
  /** True when this answer repeats an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

/** What every command handler answers over NATS request/reply. */
export type CommandReply<T> = { ok: true; value: T } | { ok: false; error: ErrorBody['error'] };
