import { MediaFetcher, MediaFile, MediaKind, MediaLimits, MediaRef, MediaType } from '@app/media';
import type { PlatformError } from '../connector';
import { PlatformCallFailed } from '../http/platform-http';
import { unsupportedMedia } from './content-rules';

/** A mebibyte and a gibibyte: the units media limits are written in (platforms' "MB" and "GB" are these unless a limit says otherwise). */
export const MIB = 1024 * 1024;
export const GIB = 1024 * MIB;

/** What one platform documents for one kind of media. */
export interface MediaKindRule {
  types: readonly MediaType[];
  maxBytes: number;
  /** Videos: the shortest and longest the platform takes, in seconds (checked when the container tells). */
  minSeconds?: number;
  maxSeconds?: number;
  /** width / height bounds (checked when the bytes tell the size). */
  minAspectRatio?: number;
  maxAspectRatio?: number;
}

/** One platform's media rules, checked before any call to it; a refusal fails only that account. */
export interface PlatformMediaRules {
  /** The most items one post carries. */
  maxItems: number;
  image?: MediaKindRule;
  gif?: MediaKindRule;
  video?: MediaKindRule;
  /** A video or GIF must be the post's only item (X, Bluesky, LinkedIn...). */
  animatedAlone?: boolean;
  /** The longest alt text the platform stores, in characters; absent = the platform takes none (it is dropped). */
  maxAltText?: number;
}

/** The checks that need no bytes: how many items, how long their alt texts. */
export function mediaCountRefusal(media: readonly MediaRef[], rules: PlatformMediaRules, platformName: string): PlatformError | null {
  if (media.length > rules.maxItems) return unsupportedMedia(`${platformName} takes at most ${rules.maxItems} media item${rules.maxItems === 1 ? '' : 's'} per post; the post has ${media.length}`);
  const longAlt = rules.maxAltText === undefined ? -1 : media.findIndex((item) => item.altText !== null && [...item.altText].length > rules.maxAltText!);
  if (longAlt >= 0) {
    return { code: 'alt_text_too_long', message: `the alt text of media item ${longAlt + 1} is longer than the ${rules.maxAltText} characters ${platformName} takes`, retryable: false };
  }
  return null;
}

/** What the pipeline may fetch for this platform: any type it takes, up to its largest size. */
export function fetchLimits(rules: PlatformMediaRules): MediaLimits {
  const kinds = [rules.image, rules.gif, rules.video].filter((rule): rule is MediaKindRule => rule !== undefined);
  return { types: kinds.flatMap((rule) => rule.types), maxBytes: Math.max(...kinds.map((rule) => rule.maxBytes)) };
}

/** The checks on the fetched bytes: kind-specific size, duration, aspect ratio, and whether a video may share the post. */
export function mediaFilesRefusal(files: readonly MediaFile[], rules: PlatformMediaRules, platformName: string): PlatformError | null {
  if (rules.animatedAlone && files.length > 1 && files.some((file) => file.kind !== 'image')) {
    return unsupportedMedia(`a video or GIF must be the only media item of a ${platformName} post`);
  }
  for (const [index, file] of files.entries()) {
    const rule = ruleFor(rules, file.kind);
    const label = `media item ${index + 1} (${file.contentType})`;
    if (!rule || !rule.types.includes(file.contentType)) {
      return { code: 'media_type_not_allowed', message: `${label} is not a type ${platformName} takes`, retryable: false };
    }
    if (file.size > rule.maxBytes) return { code: 'media_too_large', message: `${label} has ${file.size} bytes; ${platformName} takes at most ${rule.maxBytes}`, retryable: false };
    const seconds = file.durationSeconds;
    if (seconds !== null && ((rule.minSeconds !== undefined && seconds < rule.minSeconds) || (rule.maxSeconds !== undefined && seconds > rule.maxSeconds))) {
      return unsupportedMedia(`${label} lasts ${seconds} s; ${platformName} takes ${rule.minSeconds ?? 0} to ${rule.maxSeconds ?? '∞'} s`);
    }
    const ratio = file.width && file.height ? file.width / file.height : null;
    if (ratio !== null && ((rule.minAspectRatio !== undefined && ratio < rule.minAspectRatio) || (rule.maxAspectRatio !== undefined && ratio > rule.maxAspectRatio))) {
      return unsupportedMedia(`${label} is ${file.width}×${file.height}; ${platformName} takes aspect ratios from ${rule.minAspectRatio ?? 0} to ${rule.maxAspectRatio ?? '∞'}`);
    }
  }
  return null;
}

/**
 * Fetches a post's media through the pipeline under the platform's rules and runs `use`
 * with the files (removed afterwards). A refusal throws (MediaRefused from the pipeline,
 * PlatformCallFailed from the rules), which toOutcome turns into this account's failure:
 * no platform call was made.
 */
export async function withCheckedMedia<T>(
  fetcher: MediaFetcher,
  media: readonly MediaRef[],
  rules: PlatformMediaRules,
  platformName: string,
  use: (files: MediaFile[]) => Promise<T>,
): Promise<T> {
  return fetcher.withMedia(
    media.map((item) => item.url),
    fetchLimits(rules),
    async (files) => {
      const refusal = mediaFilesRefusal(files, rules, platformName);
      if (refusal) throw new PlatformCallFailed(refusal);
      return use(files);
    },
  );
}

function ruleFor(rules: PlatformMediaRules, kind: MediaKind): MediaKindRule | undefined {
  return rules[kind];
}
