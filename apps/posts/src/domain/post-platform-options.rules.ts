import { DomainError, isPlatform, OverridablePost, PlatformOptions, PlatformOptionValues, publicationFor, TargetAccount } from '@app/contracts';
import { mediaRefs } from '@app/media';
import { publishLimitRefusal } from '@app/platforms/content/publish-limits';
import { platformOptionProblem } from '@app/platforms/options/platform-options';

/**
 * The rule of `platformOptions`: keyed by the id of a platform the post targets, each a set of that
 * platform's options with the values its documentation gives (libs/platforms/src/options). Anything
 * else is platform_option_invalid, naming the platform and the option, before anything is written.
 */
export function checkPlatformOptions(requested: Record<string, Record<string, unknown>>, accounts: TargetAccount[]): PlatformOptions {
  const checked: PlatformOptions = {};
  for (const [key, options] of Object.entries(requested)) {
    const platform = key.trim().toLowerCase();
    if (!isPlatform(platform) || !accounts.some((account) => account.platform === platform)) {
      throw new DomainError('platform_option_invalid', `platformOptions ${JSON.stringify(key)}: ${isPlatform(platform) ? 'the post targets no account on it' : 'not a platform id'}`, {
        details: { platform: key },
      });
    }
    const problem = platformOptionProblem(platform, options);
    if (problem) {
      throw new DomainError('platform_option_invalid', problem.message, { details: { platform, option: problem.option, value: options[problem.option] ?? null } });
    }
    checked[platform] = options as PlatformOptionValues;
  }
  return checked;
}

/**
 * What each account with options publishes keeps its platform's limits as the options shape them
 * (a Facebook or Instagram reel or story is one media item; Mastodon counts spoiler_text with the
 * text): refused when written, platform_option_invalid naming the platform, rather than failing
 * on that platform when published.
 */
export function checkOptionedPublications(post: OverridablePost, platformOptions: PlatformOptions, accounts: TargetAccount[]): void {
  for (const account of accounts) {
    const options = platformOptions[account.platform];
    if (!options) continue;
    const publication = publicationFor(post, account);
    const refusal = publishLimitRefusal(account.platform, { content: publication.content, media: mediaRefs(publication.mediaUrls, publication.altText), options });
    if (refusal) {
      throw new DomainError('platform_option_invalid', `platformOptions ${JSON.stringify(account.platform)}: with these options ${account.platform}:${account.handle} would be refused by its platform: ${refusal.message}`, {
        details: { platform: account.platform, accountId: account.accountId, reason: refusal.code },
      });
    }
  }
}
