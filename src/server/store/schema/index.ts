export * from './auth';
export * from './catalogs';
export * from './idempotency';
export * from './settings';
export * from './tenancy';
