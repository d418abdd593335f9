export * from './comment-classification';
export * from './classify-comment';
