export * from './comment-classification';
export * from './classify-comment';
export * from './classifier-version';
