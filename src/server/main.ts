import { join } from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createMailer } from './mail/mailer';
import { firstSignInFile, firstStart, pendingFirstSignIn, type FirstAdmin } from './store/first-start';
import { DEMO_MEMBER_EMAIL } from './store/demo';
import { StoreInUseError } from './store/dir-lock';
import { pruneExpired } from './store/maintenance';
import { openStore } from './store/open';
import { pruneRevisions } from './store/retention';

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
  const pending = await pendingFirstSignIn(store.db, config.dataDir);
  const prune = () =>
    pruneExpired(store.db, new Date())
      .then((purged) => app.forgetRecords(purged))
      .then(() => pruneRevisions(store.db, new Date(), config.history))
      .catch((err: unknown) => app.log.warn({ err }, 'pruning expired rows failed'));
  // A generated password someone has used by now need not wait in its file for the next start.
  const forgetUsed = () => pendingFirstSignIn(store.db, config.dataDir).catch((err: unknown) => app.log.warn({ err }, 'checking the first sign-in failed'));
  // unref: an hourly chore must not keep a stopping process alive.
  setInterval(() => void prune().then(forgetUsed), 3600_000).unref();
  void prune();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Closing closes the connections idle at that moment; one busy then would otherwise be kept
    // open for its keep-alive time (72 s) after its answer, and the process with it.
    const idle = setInterval(() => app.server.closeIdleConnections(), 50);
    await app.close();
    clearInterval(idle);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  const url = address.replace('[::1]', 'localhost');
  const lines = [`\n  Sitekeeper is running at ${url}\n`];
  if (!config.clientDir) lines.push('  (no built client in dist/client: serving the API only; run `npm run build`)\n');
  // Listening everywhere, linking to loopback: right for this machine alone.
  if (['0.0.0.0', '::'].includes(config.host) && new URL(config.publicUrl).hostname === '127.0.0.1') {
    lines.push(`  Links in mails lead to ${config.publicUrl}: set PUBLIC_URL to the address people reach this server at.\n`);
  }
  lines.push(...signInLines(admin as FirstAdmin | null, pending, firstSignInFile(config.dataDir)));
  // One write: whoever reads the output gets the address and the credentials together.
  console.info(lines.join('\n'));
}

/**
 * How to sign in: the first admin as created, and the generated passwords nobody has used yet —
 * on every start until their first sign-in, so a start killed before it printed them loses nothing.
 */
function signInLines(created: FirstAdmin | null, pending: FirstAdmin | null, file: string): string[] {
  const lines: string[] = [];
  const kept = `(generated; kept in ${file}, readable only by you, until its first sign-in — change it then)`;
  const admin = created ?? (pending?.generatedPassword ? pending : null);
  if (admin) {
    lines.push(
      created ? '  First admin created:' : '  The first admin has not signed in yet:',
      `    email:    ${admin.email}`,
      `    username: ${admin.username}`,
      pending?.generatedPassword ? `    password: ${pending.generatedPassword}   ${kept}\n` : '    password: the one given in ADMIN_PASSWORD\n',
    );
  }
  if (pending?.demoOwner) {
    lines.push(
      `  Demo owner${created ? ' created' : ''} (a restaurant website; DEMO=0 starts without demo data):`,
      `    email:    ${pending.demoOwner.email}`,
      `    password: ${pending.demoOwner.password}   ${kept}`,
      `  Demo team member of that website (may view its CMS, change nothing): ${DEMO_MEMBER_EMAIL}, same password\n`,
    );
  }
  return lines;
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
