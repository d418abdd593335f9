export * from './media-file';
export * from './media-refused';
export * from './media-fetcher';
export * from './sniff';
export { isMetadataHostname, MediaHostAllowList, refusedRange } from './address-policy';
export { AddressRefusedError, guardedAgent } from './guarded-agent';
export type { MediaResolver } from './guarded-agent';
export type { MediaMeasure } from './measure';
