import { randomBytes } from 'node:crypto';
import type { RunningPlatformSandbox } from '@app/platform-sandbox';
import { nextCollectionAt } from '../../apps/analytics/src/domain/collection-schedule';
import { localConfig } from './local-config';

describe("npm start's analytics pace", () => {
  // Only the sandbox's addresses are read from it here.
  const sandbox = { url: 'http://127.0.0.1:4010', mediaUrl: 'https://127.0.0.1:4011' } as RunningPlatformSandbox;
  const config = (env: NodeJS.ProcessEnv = {}) =>
    localConfig({ env, databaseUrl: 'postgres://local', natsUrl: 'nats://local', state: { tokenEncryptionKey: randomBytes(32).toString('base64') }, sandbox });

  it('collects a new post within 30 s, then every minute for its first hour, looking every few seconds', () => {
    const { analyticsSchedule, analyticsTickMs } = config();
    const published = new Date('2026-05-04T09:30:00Z');
    const first = nextCollectionAt(analyticsSchedule, published, null)!;
    expect(first.getTime() - published.getTime() + analyticsTickMs).toBeLessThanOrEqual(30_000);
    let at = first;
    for (let i = 0; i < 50; i++) {
      const next = nextCollectionAt(analyticsSchedule, published, at)!;
      expect(next.getTime() - at.getTime()).toBe(60_000);
      at = next;
    }
  });

  it('takes the environment over its own pace', () => {
    expect(config({ ANALYTICS_SCHEDULE: '5m/1h', ANALYTICS_FIRST_COLLECTION_MS: '60000' }).analyticsSchedule).toEqual({ firstAfterMs: 60_000, steps: [{ everyMs: 300_000, untilMs: 3_600_000 }] });
  });
});
