import { ItemMetrics, ItemMetricsReading, METRIC_NAMES, MetricName, PostMetricsEvent } from '@app/contracts';
import { Decider } from '@app/decider';
import { TrackedItem } from './tracked-item';

/**
 * What the collector knows of one item's observations: the last numbers, when,
 * and the refusal recorded since (if any). The fold of the item's events on its
 * post's stream; the collector keeps it beside the item's schedule, so deciding
 * never reads the stream.
 */
export interface ItemMetricsState {
  observedAt: string | null;
  metrics: ItemMetrics | null;
  /** The code of the refusal recorded since the last observation. */
  failureCode: string | null;
}

export type ItemMetricsCommand =
  | { type: 'RecordItemMetrics'; item: TrackedItem; reading: ItemMetricsReading; observedAt: Date }
  | { type: 'RecordCollectionRefused'; item: TrackedItem; code: string; message: string; failedAt: Date };

/** The metrics whose value moved since `before` (every one the platform gave, on a first observation). */
export function changedMetrics(before: ItemMetrics | null, after: ItemMetrics): MetricName[] {
  return METRIC_NAMES.filter((name) => (before ? before[name] !== after[name] : after[name] !== null));
}

function itemFields(item: TrackedItem) {
  return { postId: item.postId, accountId: item.accountId, platform: item.platform, platformPostId: item.platformPostId };
}

/**
 * Observations are facts, so a reading is always recorded — a curve needs its
 * flat stretches too — except one not newer than the last (a pass that raced
 * another replica's, or a clock gone back): history only moves forward. A
 * refusal is recorded once until something changes (the next observation, or
 * another code), so a missing scope does not add an event every pass.
 */
export function decide(command: ItemMetricsCommand, state: ItemMetricsState): PostMetricsEvent[] {
  switch (command.type) {
    case 'RecordItemMetrics': {
      const observedAt = command.observedAt.toISOString();
      if (state.observedAt !== null && observedAt <= state.observedAt) return [];
      const metrics = command.reading.metrics;
      return [
        {
          type: 'ItemMetricsObserved',
          data: {
            ...itemFields(command.item),
            publishedAt: command.item.publishedAt.toISOString(),
            metrics,
            raw: command.reading.raw,
            changed: changedMetrics(state.metrics, metrics),
            observedAt,
          },
        },
      ];
    }
    case 'RecordCollectionRefused': {
      if (state.failureCode === command.code) return [];
      return [{ type: 'ItemMetricsCollectionFailed', data: { ...itemFields(command.item), code: command.code, message: command.message, failedAt: command.failedAt.toISOString() } }];
    }
  }
}

export function evolve(state: ItemMetricsState, event: PostMetricsEvent): ItemMetricsState {
  switch (event.type) {
    case 'ItemMetricsObserved':
      return { observedAt: event.data.observedAt, metrics: event.data.metrics, failureCode: null };
    case 'ItemMetricsCollectionFailed':
      return { ...state, failureCode: event.data.code };
  }
}

export function initialState(): ItemMetricsState {
  return { observedAt: null, metrics: null, failureCode: null };
}

export const itemMetricsDecider: Decider<ItemMetricsCommand, PostMetricsEvent, ItemMetricsState> = { decide, evolve, initialState };
