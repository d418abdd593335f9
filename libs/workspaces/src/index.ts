export * from './account';
export * from './api-key';
export * from './token-cipher';
export * from './workspace-store';
export * from './workspaces.module';
