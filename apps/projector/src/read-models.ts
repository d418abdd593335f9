import { PoolClient } from 'pg';
import { RecordedEvent } from '@app/event-store';
import { COMMENT_VIEWS } from './comment-views/comment-views.read-model';
import { ACCOUNT_METRICS, POST_METRICS } from './metrics-views/metrics.read-models';
import { POST_VIEWS } from './post-views/post-views.read-model';
import { ReadStream } from './in-revision-order';
import { ReadModel, Tables } from './read-model';

/** Every read model the projector keeps, each with its own tables and checkpoint. */
export const READ_MODELS: ReadModel[] = [POST_VIEWS, COMMENT_VIEWS, POST_METRICS, ACCOUNT_METRICS];

/** The read model of that name, or an error naming the known ones. */
export function readModelNamed(name: string): ReadModel {
  const model = READ_MODELS.find((m) => m.name === name);
  if (!model) throw new Error(`unknown read model ${name}: one of ${READ_MODELS.map((m) => m.name).join(', ')}`);
  return model;
}

/**
 * Applies a batch of the feed to every read model, inside the caller's
 * transaction, each into the tables `tablesOf` names (the live ones unless told).
 */
export async function projectIntoEvery(
  client: PoolClient,
  events: RecordedEvent[],
  readStream: ReadStream,
  tablesOf: (model: ReadModel) => Tables<string> = (model) => model.tables,
): Promise<void> {
  for (const model of READ_MODELS) await model.project(client, events, tablesOf(model), readStream);
}
