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
  /** Media given by url (platforms that fetch it themselves), or links: what the item shows, in order. */
  mediaUrls: string[];
  /** Media attached natively: the uploads (see SandboxUpload) the item carries, in order. */
  media: SandboxUpload[];
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
  /** The documented endpoint the request was (its path as the reference writes it); null for routes that take no token. */
  documented: string | null;
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

/**
 * One media upload as a platform holds it before (and after) it is attached: X media ids,
 * Bluesky blobs, Mastodon attachments, LinkedIn image/video URNs, Meta containers' media,
 * TikTok and YouTube upload sessions. What arrived is counted, not kept.
 */
export interface SandboxUpload {
  platform: Platform;
  /** The key of the identity whose token uploaded it. */
  account: string;
  /** The platform's id for it, in its own format. */
  id: string;
  /** As sniffed from the bytes received (or declared where the platform trusts the declaration). */
  contentType: string;
  /** Declared total size (chunked uploads), or what arrived (single-request uploads). */
  declaredBytes: number;
  receivedBytes: number;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  altText: string | null;
  /**
   * 'uploading' until every byte arrived; 'processing' until `readyAt` (the platform's
   * asynchronous processing, see SandboxStore.startProcessing); then 'ready', or 'failed' when
   * `failure` names why processing refuses it.
   */
  state: 'uploading' | 'processing' | 'ready' | 'failed';
  /** Epoch ms at which processing ends (Date.now() based). */
  readyAt: number;
  /** Why the platform's processing refuses it, in the platform's words (its status answer tells it); null when processing succeeds. */
  failure: string | null;
  /** Whether a published item carries it already (most platforms refuse to attach one twice). */
  attachedTo: string | null;
  /** Platform-specific facts (chunk indexes seen, a blob's cid, an upload url's token...). */
  extra: Record<string, string>;
}

/** The processing time of the sandbox's platforms per second of video. */
const PROCESSING_MS_PER_VIDEO_SECOND = 15;
/** For media whose duration is unknown (images, webm). */
const DEFAULT_PROCESSING_MS = 150;

/**
 * When the sandbox's processing of an upload ends (epoch ms): it grows with the video, as the
 * platforms' does ("processing times vary by content size", TikTok's Get Post Status page):
 * 15 ms per second, so the media host's default 10 s clip takes 150 ms and a test that wants a
 * long wait (a processing timeout) sends a long video (`seconds=600`: 9 s).
 */
export function processingEndsAt(durationSeconds: number | null): number {
  return Date.now() + (durationSeconds === null ? DEFAULT_PROCESSING_MS : Math.round(durationSeconds * PROCESSING_MS_PER_VIDEO_SECOND));
}

/**
 * Sandbox convention: an uploaded file whose name (a multipart part's filename, which clients
 * take from the media url's last segment, or the url a platform pulls) contains `fail-processing`,
 * e.g. https://<media host>/media/fail-processing.mp4, fails the platform's processing.
 */
export function namedToFailProcessing(fileName: string): boolean {
  return fileName.includes('fail-processing');
}

export class SandboxStore {
  items: SandboxItem[] = [];
  requests: RequestRecord[] = [];
  faults: ActiveFault[] = [];
  /** Each hold fault's release (see FaultSpec 'hold'), kept until released even once its count is spent. */
  private readonly holds = new Map<string, { released: Promise<void>; release: () => void }>();
  pending = new Map<string, PendingObject>();
  /** Media uploads by `${platform}:${id}`. */
  uploads = new Map<string, SandboxUpload>();
  /** (platform, account, Idempotency-Key) -> the item it created (Mastodon). */
  idempotency = new Map<string, string>();
  /** Comments hidden through a platform's API, by `${platform}:${id}` (each listing shows it its own way). */
  hidden = new Set<string>();
  /** Records that are neither posts nor comments (Bluesky threadgates), by at-uri: the record's JSON and its cid. */
  records = new Map<string, { cid: string; record: string }>();
  /** Items deleted through a platform's API: gone from `items`, kept so tests can tell deleted from never made. */
  deleted: SandboxItem[] = [];
  /** Who exists on each platform and which tokens were issued to them. */
  readonly auth = new SandboxAuthority();
  /**
   * When each item was made on the sandbox's clock (SandboxAuthority.now, which tests advance),
   * by `${platform}:${id}`: what the metrics endpoints count an item's age from (dialects/metrics-growth.ts).
   */
  readonly madeOnClock = new Map<string, number>();
  /** When the sandbox started, on its clock's scale: what follower counts grow from. */
  readonly startedAt = Date.now();
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

  add(item: Omit<SandboxItem, 'createdAt' | 'media'> & { createdAt?: string; media?: SandboxUpload[] }): SandboxItem {
    const stored: SandboxItem = { ...item, media: item.media ?? [], createdAt: item.createdAt ?? this.now() };
    this.items.push(stored);
    this.madeOnClock.set(`${stored.platform}:${stored.id}`, this.auth.now());
    return stored;
  }

  /** An upload as it stands now: processing until readyAt, then ready, or failed when its processing fails. */
  upload(platform: Platform, id: string): SandboxUpload | undefined {
    const upload = this.uploads.get(`${platform}:${id}`);
    if (upload?.state === 'processing' && Date.now() >= upload.readyAt) upload.state = upload.failure === null ? 'ready' : 'failed';
    return upload;
  }

  addUpload(upload: Omit<SandboxUpload, 'attachedTo' | 'extra' | 'failure'> & { extra?: Record<string, string> }): SandboxUpload {
    const stored: SandboxUpload = { ...upload, attachedTo: null, failure: null, extra: upload.extra ?? {} };
    this.uploads.set(`${upload.platform}:${upload.id}`, stored);
    return stored;
  }

  /**
   * Starts the platform's processing of an upload, which ends at `endsAt` (by default as long
   * as processingEndsAt says for its duration): in 'ready', or in 'failed' when `failure` names
   * why the platform refuses it (read back from SandboxUpload.failure by the platform's status answer).
   */
  startProcessing(upload: SandboxUpload, failure: string | null = null, endsAt = processingEndsAt(upload.durationSeconds)): void {
    upload.state = 'processing';
    upload.readyAt = endsAt;
    upload.failure = failure;
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

  isHidden(item: SandboxItem): boolean {
    return this.hidden.has(`${item.platform}:${item.id}`);
  }

  setHidden(item: SandboxItem, hidden: boolean): void {
    if (hidden) this.hidden.add(`${item.platform}:${item.id}`);
    else this.hidden.delete(`${item.platform}:${item.id}`);
  }

  /** Deletes an item as its platform does: gone from every listing, remembered in `deleted`. */
  remove(item: SandboxItem): void {
    this.items = this.items.filter((other) => other !== item);
    this.hidden.delete(`${item.platform}:${item.id}`);
    this.deleted.push(item);
  }

  record(request: Omit<RequestRecord, 'at'>): void {
    this.requests.push({ ...request, at: new Date().toISOString() });
  }

  countRequests(filter: RequestFilter = {}): number {
    return this.matchingRequests(filter).length;
  }

  matchingRequests(filter: RequestFilter = {}): RequestRecord[] {
    return this.requests.filter(
      (request) =>
        (filter.platform === undefined || request.platform === filter.platform) &&
        (filter.account === undefined || request.account === filter.account) &&
        (filter.operation === undefined || request.operation === filter.operation),
    );
  }

  addFault(request: FaultRequest): ActiveFault {
    const fault = toActiveFault(`fault-${this.nextSeq()}`, request);
    this.faults.push(fault);
    if (fault.fault.type === 'hold') {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      this.holds.set(fault.id, { released, release });
    }
    return fault;
  }

  /** Removes a fault; a hold's waiting requests go on. False when no such fault is active or holding. */
  removeFault(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    const hold = this.holds.get(id);
    this.holds.delete(id);
    hold?.release();
    return this.faults.length < before || hold !== undefined;
  }

  /** Removes every fault and lets every held request go on. */
  clearFaults(): void {
    this.faults = [];
    for (const hold of this.holds.values()) hold.release();
    this.holds.clear();
  }

  /**
   * The latency to apply, the holds to wait for (released by the test) and the first other fault
   * for this request; consumes what it returns.
   */
  takeFaults(platform: Platform, account: string, operation: string): { latencyMs: number; holds: Array<Promise<void>>; fault: FaultSpec | null } {
    let latencyMs = 0;
    const holds: Array<Promise<void>> = [];
    let fault: FaultSpec | null = null;
    for (const active of this.faults) {
      if (!faultMatches(active, platform, account, operation)) continue;
      if (active.fault.type === 'latency') {
        latencyMs += active.fault.ms;
        active.remaining--;
      } else if (active.fault.type === 'hold') {
        holds.push(this.holds.get(active.id)!.released);
        active.remaining--;
      } else if (fault === null) {
        fault = active.fault;
        active.remaining--;
      }
    }
    this.faults = this.faults.filter((active) => active.remaining > 0);
    return { latencyMs, holds, fault };
  }

  reset(): void {
    this.items = [];
    this.hidden.clear();
    this.records.clear();
    this.deleted = [];
    this.requests = [];
    this.clearFaults();
    this.pending.clear();
    this.uploads.clear();
    this.idempotency.clear();
    this.madeOnClock.clear();
    this.auth.reset();
  }
}
