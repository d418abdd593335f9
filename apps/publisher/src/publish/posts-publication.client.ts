import {
  DomainError,
  GetPublicationCommand,
  PublicationState,
  RecordAccountOutcomeCommand,
  RecordFirstCommentCommand,
  StartAccountPublishCommand,
  StartAccountPublishReply,
} from '@app/contracts';
import { CommandClient } from '@app/messaging';

export type StartDecision = StartAccountPublishReply['decision'];
export type AccountOutcome = RecordAccountOutcomeCommand['outcome'];
/** How a first comment or a thread part ended (its start boundary aside). */
export type FirstCommentOutcome = Exclude<RecordFirstCommentCommand['outcome'], { status: 'started' }>;

/** Waits between tries of a publication command when the posts service did not answer. */
const RECORD_RETRY_DELAYS_MS = [250, 1_000];

/**
 * The posts service as the publisher sees it: the four publication commands
 * over NATS. A `not_found` refusal means the account is no longer part of this
 * attempt (a retry superseded it, or the post is gone): there is nothing to do.
 */
export class PostsPublication {
  constructor(private readonly commands: CommandClient) {}

  /**
   * Records the boundary before the platform call; `done` as well when the account left this
   * attempt. Tried again briefly when the posts service does not answer: the start may have been
   * recorded and its answer lost (NATS died), and the same delivery id asking again is told
   * `started` rather than sending the account to reconciliation.
   */
  async start(command: StartAccountPublishCommand): Promise<StartDecision> {
    const reply = await withRetries(() => ignoringNotFound(() => this.commands.request('posts.start-account-publish', command)));
    return reply?.decision ?? 'done';
  }

  /**
   * Records an account's outcome. Tried again briefly when the posts service
   * does not answer: a platform id we hold only in memory is worth keeping
   * (a redelivery could only reconcile it, and not every platform can).
   */
  async recordOutcome(command: RecordAccountOutcomeCommand): Promise<void> {
    await withRetries(() => ignoringNotFound(() => this.commands.request('posts.record-account-outcome', command)));
  }

  /** Records a first comment's or a thread part's outcome, or its start: `recorded` false when it was already (by an earlier delivery). */
  async recordFirstComment(command: RecordFirstCommentCommand): Promise<{ recorded: boolean }> {
    return (await withRetries(() => ignoringNotFound(() => this.commands.request('posts.record-first-comment', command)))) ?? { recorded: false };
  }

  async publication(command: GetPublicationCommand): Promise<PublicationState> {
    return (await ignoringNotFound(() => this.commands.request('posts.get-publication', command))) ?? { accounts: [] };
  }
}

async function ignoringNotFound<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return null;
    throw error;
  }
}

async function withRetries<T>(call: () => Promise<T>): Promise<T> {
  for (const delay of RECORD_RETRY_DELAYS_MS) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'service_unavailable')) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  return call();
}
