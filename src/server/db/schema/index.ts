export * from './users.ts';
export * from './credits.ts';
export * from './notifications.ts';
export * from './identity.ts';
