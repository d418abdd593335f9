export * from './media-file';
export * from './media-refused';
export * from './media-fetcher';
export * from './sniff';
export { MediaHostAllowList, refusedRange } from './address-policy';
export type { MediaResolver } from './guarded-agent';
export type { MediaMeasure } from './measure';
