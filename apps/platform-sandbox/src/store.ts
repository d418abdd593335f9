import type { Platform } from '@app/contracts';
import { SandboxAuthority } from './auth/authority';
import { ActiveFault, faultMatches, FaultRequest, FaultSpec, toActiveFault } from './faults';

/** One published item or comment, as the sandbox remembers it (in memory: it stands in for external platforms). */
export interface SandboxItem {
  platform: Platform;
  /** The key of the identity whose token created it (see SandboxAuthority). */
  account: string;
  /** The identity in the API's path or body (page id, ig user id, DID, author URN, board id...) or the token. */
  owner: string;
  id: string;
  kind: 'post' | 'comment';
  text: string;
  mediaUrls: string[];
  /** For a comment: the item it answers (the post or another comment). */
  parentId: string | null;
  /** For a comment: the post at the root of its thread. */
  postId: string | null;
  author: string;
  createdAt: string;
  /** Platform-specific facts (a Bluesky cid, a TikTok publish_id...). */
  extra: Record<string, string>;
}

export interface RequestRecord {
  platform: Platform;
  operation: string;
  account: string;
  method: string;
  path: string;
  at: string;
}

export interface RequestFilter {
  platform?: Platform;
  account?: string;
  operation?: string;
}

/** A pending intermediate object: a Meta media container or a YouTube upload session. */
export interface PendingObject {
  platform: Platform;
  account: string;
  owner: string;
  params: Record<string, unknown>;
  consumedBy: string | null;
}

export class SandboxStore {
  items: SandboxItem[] = [];
  requests: RequestRecord[] = [];
  faults: ActiveFault[] = [];
  pending = new Map<string, PendingObject>();
  /** (platform, account, Idempotency-Key) -> the item it created (Mastodon). */
  idempotency = new Map<string, string>();
  /** Who exists on each platform and which tokens were issued to them. */
  readonly auth = new SandboxAuthority();
  private sequence = 0;
  private clock = 0;

  nextSeq(): number {
    return ++this.sequence;
  }

  /** Strictly increasing timestamps, so "oldest first" is the creation order even within a millisecond. */
  now(): string {
    this.clock = Math.max(Date.now(), this.clock + 1);
    return new Date(this.clock).toISOString();
  }

  add(item: Omit<SandboxItem, 'createdAt'> & { createdAt?: string }): SandboxItem {
    const stored: SandboxItem = { ...item, createdAt: item.createdAt ?? this.now() };
    this.items.push(stored);
    return stored;
  }

  find(platform: Platform, id: string): SandboxItem | undefined {
    return this.items.find((item) => item.platform === platform && item.id === id);
  }

  postsOf(platform: Platform, account: string, owner?: string): SandboxItem[] {
    return this.items
      .filter((item) => item.platform === platform && item.kind === 'post' && item.account === account && (owner === undefined || item.owner === owner))
      .reverse();
  }

  /** Every comment in a post's thread, oldest first. */
  commentsUnder(platform: Platform, postId: string): SandboxItem[] {
    return this.items.filter((item) => item.platform === platform && item.kind === 'comment' && item.postId === postId);
  }

  record(request: Omit<RequestRecord, 'at'>): void {
    this.requests.push({ ...request, at: new Date().toISOString() });
  }

  countRequests(filter: RequestFilter = {}): number {
    return this.requests.filter(
      (request) =>
        (filter.platform === undefined || request.platform === filter.platform) &&
        (filter.account === undefined || request.account === filter.account) &&
        (filter.operation === undefined || request.operation === filter.operation),
    ).length;
  }

  addFault(request: FaultRequest): ActiveFault {
    const fault = toActiveFault(`fault-${this.nextSeq()}`, request);
    this.faults.push(fault);
    return fault;
  }

  removeFault(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    return this.faults.length < before;
  }

  /** The latency to apply and the first other fault for this request; consumes what it returns. */
  takeFaults(platform: Platform, account: string, operation: string): { latencyMs: number; fault: FaultSpec | null } {
    let latencyMs = 0;
    let fault: FaultSpec | null = null;
    for (const active of this.faults) {
      if (!faultMatches(active, platform, account, operation)) continue;
      if (active.fault.type === 'latency') {
        latencyMs += active.fault.ms;
        active.remaining--;
      } else if (fault === null) {
        fault = active.fault;
        active.remaining--;
      }
    }
    this.faults = this.faults.filter((active) => active.remaining > 0);
    return { latencyMs, fault };
  }

  reset(): void {
    this.items = [];
    this.requests = [];
    this.faults = [];
    this.pending.clear();
    this.idempotency.clear();
    this.auth.reset();
  }
}
