import { MediaFetcher } from '@app/media';
import { DEFAULT_RETRY_POLICY } from '../http/retry-policy';
import { LINKEDIN_API_VERSION, LinkedInConnector } from './linkedin.connector';

/**
 * LinkedIn supports each monthly API release for at least one year, then answers 426
 * NONEXISTENT_VERSION ("LinkedIn Marketing API Versioning",
 * https://learn.microsoft.com/en-us/linkedin/marketing/versioning). This fails a month
 * before that happens to the default, so it is moved forward in time.
 */
it('the default LinkedIn-Version is a released version at most 11 months old', () => {
  const [, year, month] = /^(\d{4})(\d{2})/.exec(LINKEDIN_API_VERSION) ?? [];
  const now = new Date();
  const ageInMonths = (now.getUTCFullYear() - Number(year)) * 12 + (now.getUTCMonth() + 1 - Number(month));
  expect(ageInMonths).toBeGreaterThanOrEqual(0);
  expect(ageInMonths).toBeLessThanOrEqual(11);
});

it('refuses a configured version that is not YYYYMM at start', () => {
  const build = (linkedInApiVersion: string) => () => new LinkedInConnector({ baseUrl: 'https://api.linkedin.com', retry: DEFAULT_RETRY_POLICY, linkedInApiVersion, media: new MediaFetcher() });
  expect(build('2026-07')).toThrow(/YYYYMM/);
  expect(build('202611')).not.toThrow();
});
