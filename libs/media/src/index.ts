export * from './media-file';
export * from './media-refused';
export * from './media-fetcher';
export * from './sniff';
