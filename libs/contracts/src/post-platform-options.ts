import type { Platform } from './platforms';

/** One platform's publishing options as checked: each a documented value (see libs/platforms/src/options). */
export type PlatformOptionValues = Record<string, string | boolean | string[]>;

/** A post's `platformOptions`: per platform id, what that platform's publish call carries besides the post. */
export type PlatformOptions = Partial<Record<Platform, PlatformOptionValues>>;
