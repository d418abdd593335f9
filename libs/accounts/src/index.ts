export * from './account';
export * from './token-cipher';
export * from './account-store';
export * from './accounts.module';
export * from './account-view';
