export * from './api-key';
export * from './redirect-origin';
export * from './workspace-store';
export * from './workspaces.module';
