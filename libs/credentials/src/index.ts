export * from './account-credentials';
export * from './oauth-apps';
export * from './credentials.providers';
