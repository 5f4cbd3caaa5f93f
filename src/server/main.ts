import { join } from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createMailer } from './mail/mailer';
import { firstStart, type FirstAdmin } from './store/first-start';
import { DEMO_MEMBER_EMAIL } from './store/demo';
import { StoreInUseError } from './store/dir-lock';
import { pruneExpired } from './store/maintenance';
import { openStore } from './store/open';

async function main() {
  const config = loadConfig();
  let admin: FirstAdmin | null = null;
  console.info(`Opening the ${config.store.kind === 'postgres' ? 'PostgreSQL' : 'embedded'} store…`);
  const store = await openStore(config.store, firstStart(config, (created) => (admin = created)));
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
  });
  const app = await buildApp({ config, store, mailer });
  const prune = () => pruneExpired(store.db, new Date()).catch((err: unknown) => app.log.warn({ err }, 'pruning expired rows failed'));
  // unref: an hourly chore must not keep a stopping process alive.
  setInterval(prune, 3600_000).unref();
  void prune();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const url = address.replace('[::1]', 'localhost');
  const lines = [`\n  Sitekeeper is running at ${url}\n`];
  if (!config.clientDir) lines.push('  (no built client in dist/client: serving the API only; run `npm run build`)\n');
  const first = admin as FirstAdmin | null;
  if (first) {
    lines.push(
      '  First admin created:',
      `    email:    ${first.email}`,
      `    username: ${first.username}`,
      first.generatedPassword
        ? `    password: ${first.generatedPassword}   (generated; shown only this once — change it after signing in)\n`
        : '    password: the one given in ADMIN_PASSWORD\n',
    );
    if (first.demoOwner) {
      lines.push(
        '  Demo owner created (a restaurant website; DEMO=0 starts without demo data):',
        `    email:    ${first.demoOwner.email}`,
        `    password: ${first.demoOwner.password}   (generated; shown only this once)`,
        `  Demo team member of that website (may view its CMS, change nothing): ${DEMO_MEMBER_EMAIL}, same password\n`,
      );
    }
  }
  // One write: whoever reads the output gets the address and the credentials together.
  console.info(lines.join('\n'));
}

function explain(err: unknown): unknown {
  if (err instanceof ConfigError) return `Configuration error: ${err.message}`;
  if (err instanceof StoreInUseError) return err.message;
  const { code, port } = (err ?? {}) as { code?: string; port?: number };
  if (code === 'EADDRINUSE') return `Port ${port} is already in use: stop what runs there, or start with PORT=<another port>.`;
  if (code === 'EACCES') return `Not allowed to listen on port ${port}: choose PORT=1024 or higher.`;
  return err;
}

main().catch((err: unknown) => {
  console.error(explain(err));
  process.exit(1);
});
