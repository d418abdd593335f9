import type { Platform } from '@app/contracts';
import type { ProvisionInput, SandboxIdentity, TokenPair } from './auth/authority';
import { documentedConsent } from './auth/documented-consent';
import { SIGN_IN } from './auth/platforms';
import { DIALECTS } from './dialects';
import type { ActiveFault, FaultRequest } from './faults';
import type { RequestFilter, RequestRecord, SandboxItem, SandboxStore } from './store';

export interface AddCommentInput {
  platform: Platform;
  /** The published item (or comment) the new comment answers. */
  parentId: string;
  text: string;
  author?: string;
}

/** A comment's moderation state, as GET /_sandbox/comments/:platform/:id tells it. */
export interface CommentState {
  item: SandboxItem;
  hidden: boolean;
  deleted: boolean;
}

/** An account made on a platform for a test, with the tokens a completed sign-in would have given. */
export interface ProvisionedAccount extends TokenPair {
  identity: SandboxIdentity;
}

export class SandboxControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What tests (in process) and the /_sandbox HTTP API (out of process) can do to the sandbox: one home for both. */
export class SandboxControl {
  constructor(private readonly store: SandboxStore) {}

  published(filter: { platform?: Platform; account?: string; kind?: 'post' | 'comment' } = {}): SandboxItem[] {
    return this.store.items.filter(
      (item) =>
        (filter.platform === undefined || item.platform === filter.platform) &&
        (filter.account === undefined || item.account === filter.account) &&
        (filter.kind === undefined || item.kind === filter.kind),
    );
  }

  requestCount(filter: RequestFilter = {}): number {
    return this.store.countRequests(filter);
  }

  /** The requests that reached the platforms, oldest first, each with the documented endpoint it was (see platform-router.ts). */
  requests(filter: RequestFilter = {}): RequestRecord[] {
    return this.store.matchingRequests(filter);
  }

  addComment(input: AddCommentInput): SandboxItem {
    const dialect = DIALECTS[input.platform];
    if (!dialect) throw new SandboxControlError(400, `unknown platform ${input.platform}`);
    if (!dialect.createComment) throw new SandboxControlError(400, `${input.platform} has no comments in its public API`);
    const parent = this.store.find(input.platform, input.parentId);
    if (!parent) throw new SandboxControlError(404, `no ${input.platform} item ${input.parentId}`);
    const author = input.author ?? 'sandbox_commenter';
    return dialect.createComment(this.store, { account: `commenter:${author}`, parent, text: input.text, author });
  }

  /**
   * What became of a comment (or reply): still there (and whether its post's author hid it), or
   * deleted through the platform's API. Unknown ids are a 404.
   */
  commentState(platform: Platform, id: string): CommentState {
    const item = this.store.find(platform, id);
    if (item) return { item, hidden: this.store.isHidden(item), deleted: false };
    const deleted = this.store.deleted.find((gone) => gone.platform === platform && gone.id === id);
    if (deleted) return { item: deleted, hidden: false, deleted: true };
    throw new SandboxControlError(404, `no ${platform} item ${id}`);
  }

  /**
   * Makes an identity on a platform (a user, or a page / instagram account / organization a
   * user manages) and signs it in: the tokens are the platform's own kind (lifetimes, refresh),
   * holding `scopes`, or without them the platform's documented ones (documentedConsent).
   */
  provisionAccount(input: ProvisionInput & { scopes?: string[] }): ProvisionedAccount {
    const signIn = SIGN_IN[input.platform];
    if (!signIn) throw new SandboxControlError(400, `unknown platform ${input.platform}`);
    const auth = this.store.auth;
    const identity = auth.provision({ ...input, platformAccountId: input.platformAccountId ?? signIn.newAccountId(auth, input.kind ?? 'user') });
    return { identity, ...signIn.issueTokens(auth, identity, null, input.scopes ?? documentedConsent(input.platform)) };
  }

  /** Moves the sandbox's clock forward: tokens expire as if that much time had passed. */
  advanceClock(seconds: number): void {
    this.store.auth.advanceClock(seconds);
  }

  /** The user revokes the app (or changes their password): every token of the identity stops working. */
  revokeAccount(key: string): void {
    if (!this.store.auth.identity(key)) throw new SandboxControlError(404, `no account ${key}`);
    this.store.auth.revokeIdentity(key);
  }

  addFault(request: FaultRequest): ActiveFault {
    if (!DIALECTS[request.platform]) throw new SandboxControlError(400, `unknown platform ${request.platform}`);
    return this.store.addFault(request);
  }

  /** Removes a fault; removing a hold lets the requests it holds go on. */
  removeFault(id: string): boolean {
    return this.store.removeFault(id);
  }

  /** Removes every fault; the requests held by a hold go on. */
  clearFaults(): void {
    this.store.clearFaults();
  }

  faults(): ActiveFault[] {
    return this.store.faults;
  }

  reset(): void {
    this.store.reset();
  }
}
