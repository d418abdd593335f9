export * from './create-http-app';
export * from './run-main';
