import { INSUFFICIENT_PLATFORM_SCOPE } from '@app/contracts';
import { PlatformCallFailed } from '../http/platform-http';
import { countOf, itemMetrics, readingMetrics } from './metrics-reading';

describe('itemMetrics', () => {
  it('fills the vocabulary with the numbers given and null for every other metric, never 0', () => {
    expect(itemMetrics({ likes: 3, comments: 0, videoViews: '1200' })).toEqual({
      impressions: null, reach: null, likes: 3, comments: 0, shares: null, saves: null, clicks: null, videoViews: 1200,
    });
  });

  it('reads a field the platform left out or sent as something else as null, not 0', () => {
    expect(itemMetrics({ likes: undefined, shares: 'many', saves: -1, clicks: 1.5, impressions: null }).likes).toBeNull();
    expect(Object.values(itemMetrics({ shares: 'many', saves: -1, clicks: 1.5 })).every((value) => value === null)).toBe(true);
    expect(countOf('42')).toBe(42);
    expect(countOf('4.2')).toBeNull();
  });
});

describe('readingMetrics', () => {
  const refused = (code: string, retryable = false) => () => Promise.reject(new PlatformCallFailed({ code, message: 'refused', retryable }));

  it("turns the platform's scope refusal into insufficient_platform_scope, not retryable, naming the scopes", async () => {
    const failure = await readingMetrics(refused('permission_denied'), ['permission_denied'], ['read_insights']).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PlatformCallFailed);
    expect((failure as PlatformCallFailed).error).toMatchObject({ code: INSUFFICIENT_PLATFORM_SCOPE, retryable: false, message: expect.stringContaining('read_insights') });
  });

  it('leaves every other failure as the platform answered it (a throttled call stays retryable with its wait)', async () => {
    const throttled = () => Promise.reject(new PlatformCallFailed({ code: 'rate_limited', message: 'slow down', retryable: true, retryAfterMs: 30_000 }));
    const failure = await readingMetrics(throttled, ['permission_denied'], ['read_insights']).catch((error: unknown) => error);
    expect((failure as PlatformCallFailed).error).toEqual({ code: 'rate_limited', message: 'slow down', retryable: true, retryAfterMs: 30_000 });
    await expect(readingMetrics(() => Promise.resolve(7), ['permission_denied'], [])).resolves.toBe(7);
  });
});
