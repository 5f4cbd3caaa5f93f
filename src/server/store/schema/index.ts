export * from './auth';
export * from './settings';
export * from './team';
export * from './users';
