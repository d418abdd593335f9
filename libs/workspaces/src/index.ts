export * from './api-key';
export * from './workspace-store';
export * from './workspaces.module';
