import { Inject, Injectable } from '@nestjs/common';
import {
  BulkCreatePostsCommand,
  BulkCreatePostsReply,
  BulkImportRow,
  BulkRowOutcome,
  comparePositions,
  CreatePostCommand,
  DomainError,
  formatPosition,
  GlobalPosition,
  parsePosition,
  PostEvent,
  postStreamId,
} from '@app/contracts';
import { AccountStore } from '@app/accounts';
import { AppConfig } from '@app/config';
import { EVENT_STORE, EventStore, StreamAppend, WrongExpectedRevisionError } from '@app/event-store';
import { PostCommandRunner } from '../domain/post-command-runner';
import { postDecider } from '../domain/post.decider';
import { loadPost, toNewPostEvents } from '../domain/post-stream';
import { ReviewPolicy } from '../review/review-policy';
import { CreatePostHandler } from './create-post.handler';
import { fieldOfError } from './field-of-error';

/** Rows decided at once in a non-atomic import: the command runner batches their appends into few statements. */
const CONCURRENT_ROWS = 32;

/**
 * posts.create-bulk: every row is a single create (CreatePostHandler.prepare, the Post decider),
 * with the row's own Idempotency-Key `<upload key>#<row identity>` so a retried upload replays
 * each row instead of creating it again.
 *
 * Not atomic: each row is created or refused on its own. Atomic: every row is decided first on
 * its stream's state; one refusal and nothing is appended; otherwise all rows' events go in one
 * multi-stream append (one SQL statement on PostgreSQL), each stream at the revision it was
 * decided on — a stream that moved meanwhile fails the whole import, which is then retried as a
 * whole or answered as a conflict.
 */
@Injectable()
export class BulkCreateHandler {
  constructor(
    private readonly creates: CreatePostHandler,
    private readonly runner: PostCommandRunner,
    private readonly accounts: AccountStore,
    private readonly reviews: ReviewPolicy,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly config: AppConfig,
  ) {}

  async handle(command: BulkCreatePostsCommand, requestId: string | undefined): Promise<BulkCreatePostsReply> {
    const context = { workspaceAccounts: await this.accounts.list(command.workspaceId), review: await this.reviews.reviewFor(command.workspaceId, command.actor) };
    const rowCommand = (row: BulkImportRow): CreatePostCommand => ({
      workspaceId: command.workspaceId,
      body: row.body,
      idempotencyKey: command.idempotencyKey === null ? null : `${command.idempotencyKey}#${row.identity}`,
      actor: command.actor,
    });
    const prepared = command.rows.map((row) => ({ row, command: rowCommand(row), ...this.creates.prepare(rowCommand(row), context) }));
    return command.atomic ? this.allOrNothing(command.workspaceId, prepared, requestId) : this.eachOnItsOwn(command.workspaceId, prepared, requestId);
  }

  private async eachOnItsOwn(workspaceId: string, prepared: Prepared[], requestId: string | undefined): Promise<BulkCreatePostsReply> {
    const outcomes: BulkRowOutcome[] = new Array(prepared.length);
    const positions: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < prepared.length) {
        const index = next++;
        const { row, command, postId, build, fresh } = prepared[index];
        try {
          // A queued row is a single create in full: its slots are claimed on the accounts' queues first.
          const result =
            row.body.queue === true
              ? await this.creates.handle(command, requestId)
              : await this.runner.run(postId, { workspaceId }, build, requestId, { fresh }).then((run) => ({ postId, position: run.position, replayed: run.events.length === 0 }));
          if (result.position) positions.push(result.position);
          outcomes[index] = { row: row.row, identity: row.identity, status: 'created', postId: result.postId, replayed: result.replayed };
        } catch (error) {
          outcomes[index] = refused(row, error);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_ROWS, prepared.length) }, worker));
    return { rows: outcomes, position: latest(positions.map(parsePosition)) };
  }

  private async allOrNothing(workspaceId: string, prepared: Prepared[], requestId: string | undefined): Promise<BulkCreatePostsReply> {
    // Queue slots are claimed one post at a time, on each account's queue stream: no part of one all-or-nothing append.
    const queued = prepared.find(({ row }) => row.body.queue === true);
    if (queued) throw new DomainError('queue_and_atomic', `row ${queued.row.row} asks for queue: an atomic import cannot claim queue slots; import queued rows without atomic`, { details: { row: queued.row.row } });
    const now = this.config.now();
    const decided = await Promise.all(
      prepared.map(async ({ row, postId, build, fresh }) => {
        try {
          const loaded = fresh ? { state: postDecider.initialState(), expected: 'no_stream' as const, last: null } : await loadPost(this.store, postId);
          if (loaded.state.exists && loaded.state.data.workspaceId !== workspaceId) throw new DomainError('not_found', 'no such post in this workspace');
          const events: PostEvent[] = postDecider.decide(build(loaded.state, now), loaded.state);
          return { row, postId, events, expected: loaded.expected, last: loaded.last?.position ?? null, error: null };
        } catch (error) {
          return { row, postId, events: [], expected: 'no_stream' as const, last: null, error: refused(row, error) };
        }
      }),
    );
    if (decided.some((d) => d.error)) {
      return { rows: decided.map((d) => d.error ?? { row: d.row.row, identity: d.row.identity, status: 'skipped' }), position: null };
    }
    const appends: StreamAppend[] = decided
      .filter((d) => d.events.length > 0)
      .map((d) => ({ streamId: postStreamId(d.postId), events: toNewPostEvents(d.events, workspaceId, requestId), expected: d.expected }));
    const outcomes = appends.length > 0 ? await this.store.appendMany(appends) : [];
    const conflict = outcomes.find((o): o is WrongExpectedRevisionError => o instanceof WrongExpectedRevisionError);
    if (conflict) throw new DomainError('service_unavailable', `a post of the import changed while it was decided (${conflict.streamId}); send the import again with the same Idempotency-Key`);
    const positions = [...decided.flatMap((d) => (d.last ? [d.last] : [])), ...outcomes.map((o) => (o as { position: GlobalPosition }).position)];
    return {
      rows: decided.map((d) => ({ row: d.row.row, identity: d.row.identity, status: 'created', postId: d.postId, replayed: d.events.length === 0 })),
      position: latest(positions),
    };
  }
}

type Prepared = { row: BulkImportRow; command: CreatePostCommand } & ReturnType<CreatePostHandler['prepare']>;

/** A refused row as the answer lists it; anything but a rule's refusal is the service's failure, not the row's. */
function refused(row: BulkImportRow, error: unknown): BulkRowOutcome {
  if (!(error instanceof DomainError)) throw error;
  const column = fieldOfError(error);
  return {
    row: row.row,
    identity: row.identity,
    status: 'refused',
    error: { code: error.code, message: error.message, ...(column ? { column } : {}), ...(error.extra.details !== undefined ? { details: error.extra.details } : {}) },
  };
}

function latest(positions: GlobalPosition[]): string | null {
  if (positions.length === 0) return null;
  return formatPosition(positions.reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b)));
}
