import { defineConfig } from 'drizzle-kit';

// Only `drizzle-kit generate` uses this: migrations are applied by the server itself at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/store/schema/index.ts',
  out: './src/server/store/migrations',
});
