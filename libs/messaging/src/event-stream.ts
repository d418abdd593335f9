import { Subjects } from '@app/contracts';
import { NatsConnection, RetentionPolicy, StorageType, nanos } from 'nats';

/**
 * Creates (or updates) the JetStream stream that carries every event. The
 * duplicate window is sized deliberately: the relay may resend events after a
 * crash, and resends inside the window are dropped by Nats-Msg-Id.
 */
export async function ensureEventStream(nc: NatsConnection, subjects: Subjects, duplicateWindowMs: number): Promise<void> {
  const jsm = await nc.jetstreamManager();
  const config = {
    name: subjects.eventStreamName,
    subjects: [`${subjects.eventRoot}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    duplicate_window: nanos(duplicateWindowMs),
  };
  try {
    await jsm.streams.info(config.name);
    await jsm.streams.update(config.name, config);
  } catch (error) {
    if ((error as { code?: string }).code !== '404') throw error;
    await jsm.streams.add(config);
  }
}
