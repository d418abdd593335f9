export * from './account-credentials';
export * from './call-as-account';
export * from './oauth-apps';
export * from './credentials.providers';
