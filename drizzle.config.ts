import { defineConfig } from 'drizzle-kit';

// Only `drizzle-kit generate` uses this: migrations are applied by the server itself at start.
export default defineConfig({
  dialect: 'postgresql',
  // Every file's tables: a new module's tables file needs no re-export in schema/index.ts for its migration.
  schema: './src/server/store/schema/*.ts',
  out: './src/server/store/migrations',
});
