import type { Platform } from '@app/contracts';
import { DIALECTS } from './dialects';
import type { ActiveFault, FaultRequest } from './faults';
import type { RequestFilter, SandboxItem, SandboxStore } from './store';

export interface AddCommentInput {
  platform: Platform;
  /** The published item (or comment) the new comment answers. */
  parentId: string;
  text: string;
  author?: string;
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

  addComment(input: AddCommentInput): SandboxItem {
    const dialect = DIALECTS[input.platform];
    if (!dialect) throw new SandboxControlError(400, `unknown platform ${input.platform}`);
    if (!dialect.createComment) throw new SandboxControlError(400, `${input.platform} has no comments in its public API`);
    const parent = this.store.find(input.platform, input.parentId);
    if (!parent) throw new SandboxControlError(404, `no ${input.platform} item ${input.parentId}`);
    const author = input.author ?? 'sandbox_commenter';
    return dialect.createComment(this.store, { account: `commenter:${author}`, parent, text: input.text, author });
  }

  addFault(request: FaultRequest): ActiveFault {
    if (!DIALECTS[request.platform]) throw new SandboxControlError(400, `unknown platform ${request.platform}`);
    return this.store.addFault(request);
  }

  removeFault(id: string): boolean {
    return this.store.removeFault(id);
  }

  clearFaults(): void {
    this.store.faults = [];
  }

  faults(): ActiveFault[] {
    return this.store.faults;
  }

  reset(): void {
    this.store.reset();
  }
}
