export * from './post-views/post-views';
export * from './post-views/post-response';
export * from './post-views/post-views.reader';
export * from './comment-views/comment-views';
export * from './comment-views/comment-views.reader';
export * from './projection-waiter';
export * from './list-cursor';
export * from './queue-views/queue-views.reader';
