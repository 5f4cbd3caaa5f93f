export * from './auth';
export * from './catalogs';
export * from './counts';
export * from './idempotency';
export * from './services';
export * from './settings';
export * from './tenancy';
export * from './cms';
