import { Pool, PoolClient } from 'pg';
import type { Statement } from '@app/database';
import { RecordedEvent } from '@app/event-store';
import { ReadStream } from './in-revision-order';

/** A read model's table names by role: the live ones, or a rebuild's or a verification's copies of them. */
export type Tables<Role extends string> = Record<Role, string>;

/**
 * One read model the projector keeps. It owns its tables (no other projection
 * writes them) and its checkpoint, under its name, which is also the name its
 * progress is announced under (notifyProjectionAdvanced): one follower feeds
 * every model from its own checkpoint, and each is rebuilt on its own.
 */
export interface ReadModel<Role extends string = string> {
  name: string;
  tables: Tables<Role>;
  /** The table with one row per stream (row id = stream id without the prefix): what verify-projections compares. */
  view: { role: Role; streamPrefix: string };
  /** Applies a batch of the feed to `tables`, inside the caller's transaction; events it has no use for are passed over. */
  project(client: PoolClient, events: RecordedEvent[], tables: Tables<Role>, readStream: ReadStream): Promise<void>;
  /**
   * What `project` would write for the batch, as writes for one statement with the checkpoint
   * (oneStatement), read with `pool` outside any transaction; null when the batch needs `project`
   * (a write whose outcome decides the next, or a read after a write). Optional: a model without it
   * always goes through `project`.
   */
  writesOf?(pool: Pool, events: RecordedEvent[], tables: Tables<Role>, readStream: ReadStream): Promise<Statement[] | null>;
  /**
   * The ids of the view's rows whose status (or existence) the batch may change, announced with its
   * progress so that a waiter for one row's status (a publishNow's answer, waiting for its post to
   * leave publishing) is woken only by the batches that may end its wait. Optional: a model without
   * it announces that any row may have changed.
   */
  viewsWhoseStatusMayChange?(events: RecordedEvent[]): ReadonlySet<string>;
  /**
   * Called each time the follower starts from the checkpoints again (a new leadership, or after a
   * failed batch): whatever the model remembers of its tables is dropped, since a batch it
   * remembered may not have been written. Optional: for a model that remembers nothing.
   */
  restarting?(): void;
}

/** The model's tables, each renamed (a rebuild's or a verification's copies). */
export function renamedTables<Role extends string>(tables: Tables<Role>, rename: (live: string) => string): Tables<Role> {
  return Object.fromEntries(Object.entries<string>(tables).map(([role, live]) => [role, rename(live)])) as Tables<Role>;
}
