export * from './create-http-app';
export * from './run-main';
export * from './periodic-task';
