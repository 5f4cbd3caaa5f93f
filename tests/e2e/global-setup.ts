// Every browser test's server (tests/support/e2e-server.ts) starts from one PGlite migrated once per
// run, instead of migrating its own while the worker's fixture waits.
export { sharePgliteImage as default } from '../support/migrated-stores';
