export * from './post-views';
export * from './post-response';
export * from './post-views.reader';
export * from './projection-waiter';
export * from './comment-views.reader';
export * from './list-cursor';
