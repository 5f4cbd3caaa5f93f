export * from './auth';
export * from './catalogs';
export * from './idempotency';
export * from './settings';
export * from './team';
export * from './users';
export * from './websites';
