import compress from '@fastify/compress';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { randomUUID } from 'node:crypto';
import { messages } from '../contract/messages';
import { MODULES } from '../contract/modules';
import * as catalogs from '../contract/resources/catalogs';
import { settings as settingsEntry } from '../contract/resources/settings';
import type { Config } from './config';
import { isApiPath, registerClient, sendApp, wantsApp } from './http/client';
import { secureAnswer } from './http/security-headers';
import { registerEmptyBodies } from './http/empty-body';
import { frameworkErrors, registerErrorHandling, sendFailure } from './http/errors';
import { i18nPlugin } from './http/i18n';
import { answerSerializer } from './http/serializer';
import type { Mailer } from './mail/mailer';
import type { ServerContext } from './context';
import { dropFilesOfRecords, registerResource } from './crud';
import type { DeletedRecord } from './store/maintenance';
import { s3Storage } from './files/s3';
import { diskStorage } from './files/storage';
import { IMAGE_LIMITS } from './files/images';
import { fileRoutes } from './routes/files';
import { actorOf } from './auth/actor';
import { registerIdempotency } from './http/idempotency';
import { registerJsonBody } from './http/json-body';
import { websiteMemos } from './live/memo';
import { registerPolicies } from './policy';
import { accountRoutes } from './routes/accounts';
import { activityRoutes } from './routes/activity';
import { recycleBinRoutes } from './routes/recycle-bin';
import { authRoutes } from './routes/auth';
import { openChangeFeed } from './live/changes';
import { principals } from './auth/principals';
import { liveRoutes } from './live/events';
import { publicRoutes } from './routes/public';
import { MODULE_ROUTES } from './modules';
import { registerDeliveryReference, registerOpenApi } from './openapi';
import { seoRoutes } from './routes/seo';
import { websiteRoutes } from './routes/websites';
import { serviceRoutes } from './routes/services';
import { teamRoutes } from './routes/team';
import { languageRoutes } from './routes/languages';
import { profileRoutes } from './routes/profile';
import { healthRoutes } from './routes/health';
import { webhookRoutes } from './routes/webhooks';
import { whiteLabelRoutes } from './routes/white-label';
import type { Store } from './store/open';
import * as tables from './store/schema';
import type { WebhookTiming } from './webhooks/sender';

export interface AppDeps {
  // Without `filesS3` (tests) uploads go to `filesDir`.
  config: Pick<Config, 'clientDir' | 'corsOrigins' | 'logLevel' | 'appSecret' | 'trustProxy' | 'filesDir' | 'publicUrl'> & Partial<Pick<Config, 'filesS3' | 'smtpAllowPrivate' | 'webhooksAllowPrivate'>>;
  store: Store;
  mailer: Mailer;
  /** Tests pass a clock they can move; expiry and rate limits all read it. */
  clock?: () => Date;
  /** Tests pass `false`; main passes pino options. */
  logger?: FastifyServerOptions['logger'];
  /** How often contact form mails that failed are looked at again (routes/contact-forms.ts); tests pass a short one. */
  formMailRetryMs?: number;
  /** How webhooks are scheduled (webhooks/sender.ts); tests pass short rounds and their own back-off. */
  webhookTiming?: Partial<WebhookTiming>;
}

/**
 * JSON (and text) bodies. Uploads are not held to it: @fastify/multipart streams them under its own
 * limits below (10 MiB a file), and an idempotent upload is read whole under those (http/held-multipart.ts).
 */
export const BODY_LIMIT = 1024 * 1024;
/** The longest path parameter a route takes is a slug (120 characters); a longer one names nothing (404). */
const MAX_PARAM_LENGTH = 200;
/** Smaller API answers go out as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD = 1024;

/** The resources that need no route code of their own (docs/design.md §3): an entry and its table each. */
export const crudResources = [
  [catalogs.categories, tables.categories],
  [catalogs.subcategories, tables.subcategories],
  [catalogs.types, tables.types],
  [catalogs.technologies, tables.technologies],
  [catalogs.hosting, tables.hosting],
  [catalogs.languages, tables.languages],
] as const;

/** Structured request logs; credentials are redacted wherever a serializer would reach them. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: {
      // @fastify/multipart logs the headers it hands busboy, at trace level.
      paths: [
        ...['.authorization', '.cookie', '["x-api-key"]'].flatMap((header) => [`req.headers${header}`, `busboyOptions.headers${header}`]),
        'req.body.password',
        'req.body.pin',
        'req.body.newPassword',
      ],
      censor: '[redacted]',
    },
  };
}

// A hop count means: trust that many proxies in front (Fastify's typings only know the function form).
const trustProxy = (setting: Config['trustProxy']) =>
  typeof setting === 'number' ? (_address: string, hop: number) => hop < setting : setting;

/** What every answer carries from its start, the router's own refusals too: its request id, and no caching for the API (a route may allow it). */
function everyAnswer(request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  // API answers are private and current by nature: no browser or proxy may keep them.
  if (isApiPath(request.url)) reply.header('cache-control', 'no-store');
}

const replacedBelow = (): never => {
  throw new Error('the app sets its own validator and serializer compilers');
};

/** The whole server as a value: no globals, so tests build as many as they like. */
export async function buildApp({ config, store, mailer, logger, clock = () => new Date(), formMailRetryMs, webhookTiming }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config.logLevel),
    // Our own ids: a client-chosen id would let anyone forge log lines.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    // Only behind a proxy we were told about may X-Forwarded-For name the client (rate limits key on it).
    trustProxy: trustProxy(config.trustProxy),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Without a factory of its own Fastify loads Ajv and fast-json-stringify's compiler (a hundred
    // files, a tenth of a start) for compilers ours replace at once, below.
    schemaController: { compilersFactory: { buildValidator: replacedBelow, buildSerializer: replacedBelow } },
    frameworkErrors: (error, request, reply) => {
      everyAnswer(request, reply);
      secureAnswer(reply);
      frameworkErrors(error, request, reply);
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer(app.log));
  const changes = await openChangeFeed(store, app.log);
  const tokens = await principals(app, store, () => clock().getTime());
  const ctx: ServerContext = {
    store,
    mailer,
    clock,
    secret: config.appSecret,
    files: config.filesS3 ? s3Storage(config.filesS3) : diskStorage(config.filesDir),
    publicUrl: config.publicUrl,
    smtpAllowPrivate: config.smtpAllowPrivate ?? false,
    webhooksAllowPrivate: config.webhooksAllowPrivate ?? false,
    formMailRetryMs,
    webhookTiming,
    changes,
    memos: websiteMemos(app, changes, () => clock().getTime()),
    readSession: tokens.read,
    entries: new Map(),
  };
  app.decorate('forgetRecords', (records: readonly DeletedRecord[]) => dropFilesOfRecords(ctx.entries, records, app.log));
  app.addHook('onRequest', (request, reply, done) => {
    everyAnswer(request, reply);
    done();
  });
  // At the end, when the status is known and the route has set what it sets itself.
  app.addHook('onSend', (_request, reply, payload, done) => {
    secureAnswer(reply);
    done(null, payload);
  });
  app.addHook('onClose', async () => {
    mailer.close();
    await ctx.changes.close();
    await tokens.close();
    await store.close();
  });

  registerJsonBody(app);
  registerPolicies(app, ctx, registerIdempotency(app, ctx, actorOf).answeredBefore);
  await app.register(i18nPlugin);
  registerErrorHandling(app);
  registerEmptyBodies(app);
  // Credentials: an app built for another origin of the same site carries the sign-in cookies (ADR 017).
  if (config.corsOrigins.length > 0) await app.register(cors, { origin: config.corsOrigins, credentials: true });
  // Before any route: it hooks each route as it is added. Its brotli runs at quality 4, fast enough
  // per request; built files are compressed at the strongest setting by the build (http/client.ts)
  // and pass through untouched, since they already carry a Content-Encoding.
  await app.register(compress, { threshold: COMPRESS_THRESHOLD, encodings: ['br', 'gzip'] });

  // Uploads stream in part by part; no request may carry more than these, whatever a route asks.
  await app.register(multipart, { limits: { fileSize: IMAGE_LIMITS.maxBytes, files: 20, fields: 20, fieldSize: 10_000, parts: 40 } });

  // Before the routes: the document collects them as they are added.
  await registerOpenApi(app);
  await registerDeliveryReference(app);
  await app.register(healthRoutes, { store });
  await app.register(fileRoutes, ctx);
  await app.register(whiteLabelRoutes, { store });
  await app.register(languageRoutes, { store });
  await app.register(authRoutes, ctx);
  await app.register(profileRoutes, ctx);
  for (const [resource, table] of crudResources) registerResource(app, ctx, resource, table);
  registerResource(app, ctx, settingsEntry, tables.appSettings, {}, { imageColumn: 'cmsLogoKey' });
  await app.register(accountRoutes, ctx);
  await app.register(websiteRoutes, ctx);
  await app.register(serviceRoutes, ctx);
  // A website's CMS (spec §7): each module in its own scope, so what it hooks stays its own.
  for (const { key } of MODULES) await app.register(MODULE_ROUTES[key], ctx);
  await app.register(seoRoutes, ctx);
  await app.register(teamRoutes, ctx);
  // After every entry whose changes it shows, or tells webhooks of.
  await app.register(activityRoutes, ctx);
  await app.register(webhookRoutes, ctx);
  await app.register(recycleBinRoutes, ctx);
  await app.register(publicRoutes, ctx);
  await app.register(liveRoutes, ctx);

  const clientDir = config.clientDir;
  if (clientDir) await registerClient(app, clientDir);
  app.setNotFoundHandler((request, reply) => {
    if (clientDir && wantsApp(request)) return sendApp(reply);
    return sendFailure(reply, 404, { message: request.t(isApiPath(request.url) ? messages.routeNotFound : messages.notFound) });
  });
  return app;
}
