import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FailureSchema } from '../contract/envelope';
import type { Policy } from '../contract/permissions';
import { PREVIEW_HEADER } from '../contract/preview';
import { DELIVERY_REFERENCE_PATH } from '../contract/server-pages';
import { isApiPath } from './http/client';

/** Areas of the API by a path's first segment after /api; a segment not named here is its own tag. */
const AREAS: Readonly<Record<string, string>> = {
  admins: 'users',
  partners: 'websites',
  seo: 'cms',
  team: 'websites',
  'team-roles': 'websites',
  categories: 'catalogs',
  subcategories: 'catalogs',
  types: 'catalogs',
  technologies: 'catalogs',
  hosting: 'catalogs',
  languages: 'catalogs',
  'white-label': 'settings',
  health: 'system',
  files: 'system',
  'openapi.json': 'system',
};

const TAGS = [
  { name: 'public', description: 'The delivery API a website calls with its key in X-API-Key: published content only, and its visitors’ contact form submissions.' },
  { name: 'auth', description: 'Sign-in with password and PIN, password reset, sign-out.' },
  { name: 'profile', description: 'The signed-in account, its password and devices.' },
  { name: 'users', description: 'Accounts of owners, partners and administrators.' },
  { name: 'websites', description: 'Websites, their partner records, teams and API keys.' },
  { name: 'cms', description: 'A website’s content: pages, menus, posts, sliders, media, food menus, SEO, contact forms (submissions, SMTP settings, mail template).' },
  { name: 'services', description: 'What a website can be built with, and its prices.' },
  { name: 'catalogs', description: 'Categories, types, technologies, hosting and languages.' },
  { name: 'settings', description: 'The installation’s settings and white-label branding.' },
  { name: 'system', description: 'Health, stored files and this document.' },
];

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body is a multipart upload its handler reads itself: the document describes its parts. */
    multipart?: true;
  }
}

/** An upload's body as the document shows it: its files (one or several, each a `file` part) and its text fields. */
const MULTIPART_BODY = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        properties: { file: { type: 'string', format: 'binary', description: 'A file; routes taking several repeat the part.' } },
        additionalProperties: { type: 'string' },
        required: ['file'],
      },
    },
  },
};

/** Every error answer, in the one envelope, and when a route gives it. */
const ERRORS: Readonly<Record<number, string>> = {
  400: 'The request is not one this route takes: `errors` names each field and why.',
  401: 'No session, or no active API key of the website where one is needed.',
  403: 'The caller’s account type or team role does not allow it.',
  404: 'No such record, or one of a website the caller has nothing to do with.',
  409: 'The record changed since the version named in If-Match: `data` is the record as it is now.',
  413: 'The body, or a file in it, is larger than this route takes.',
  415: 'The body’s type is not one this route takes.',
  422: 'The Idempotency-Key was used before for another request.',
  428: 'If-Match is missing: name the version the change is made from.',
  429: 'Too many attempts: try again later.',
};

type Operation = { operationId?: string; parameters?: object[]; responses?: Record<string, object>; requestBody?: object; 'x-policy'?: Policy; 'x-multipart'?: true };
type OpenApiDocument = { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };

const MUTATING = new Set(['post', 'put', 'patch', 'delete']);
/** The CRUD operations that need the version they change (crud/index.ts names them). */
const VERSIONED = /^(update|delete|reorder)/;

function errorsOf(method: string, path: string, operation: Operation): number[] {
  const policy = operation['x-policy'];
  const codes = [400];
  if (policy !== 'public') codes.push(401);
  if (policy !== 'public' && policy !== 'apiKey' && policy !== 'authenticated') codes.push(403);
  if (path.includes('{')) codes.push(404);
  if (MUTATING.has(method)) {
    codes.push(413, 415);
    if (policy !== 'public') codes.push(422);
  }
  if (VERSIONED.test(operation.operationId ?? '')) codes.push(409, 428);
  if (policy === 'public' || policy === 'apiKey') codes.push(429);
  return codes;
}

const header = (name: string, description: string, required = false) => ({ in: 'header', name, required, description, schema: { type: 'string' } });

/**
 * What every operation has beyond its own schemas: its error answers in the envelope, the headers
 * that apply (Idempotency-Key on every change a caller signs, If-Match where a version is named),
 * and one name for a path the spec gives two meanings (`/gastro-menus/{menuId}` reads a menu, the
 * same path with a website's id lists and creates them): its parameter named for both.
 */
function completed(document: OpenApiDocument): OpenApiDocument {
  const failure = { $ref: '#/components/schemas/Failure' };
  document.components = { ...document.components, schemas: { ...document.components?.schemas, Failure: z.toJSONSchema(FailureSchema as unknown as z.ZodType, { io: 'output' }) } };
  const paths: NonNullable<OpenApiDocument['paths']> = {};
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    const twin = Object.keys(paths).find((other) => other !== path && template(other) === template(path));
    const named = twin ? mergedName(twin, path) : path;
    if (twin && twin !== named) {
      paths[named] = renamed(paths[twin]!, twin, named);
      delete paths[twin];
    }
    const into = (paths[named] ??= {});
    for (const [method, operation] of Object.entries(twin ? renamed(operations, path, named) : operations)) {
      const responses = { ...operation.responses };
      for (const code of errorsOf(method, named, operation)) responses[code] ??= { description: ERRORS[code], content: { 'application/json': { schema: failure } } };
      const parameters = [...(operation.parameters ?? [])];
      if (MUTATING.has(method) && operation['x-policy'] !== 'public') parameters.push(header('Idempotency-Key', 'A UUID: a repeat of the request answers the first answer again, without doing it twice.'));
      if (VERSIONED.test(operation.operationId ?? '')) parameters.push(header('If-Match', 'The version the change is made from, as the ETag of a read gives it ("3").', true));
      const { 'x-multipart': multipart, ...rest } = operation;
      into[method] = { ...rest, parameters, responses, ...(multipart && { requestBody: MULTIPART_BODY }) };
    }
  }
  return { ...document, paths };
}

/** A path with its parameters' names left out: two paths alike but for those are one path. */
const template = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/** One name for two parameters in the same place: `{websiteIdOrMenuId}`. */
function mergedName(one: string, other: string): string {
  const a = one.split('/');
  const b = other.split('/');
  return a.map((segment, at) => (segment === b[at] ? segment : `{${segment.slice(1, -1)}Or${b[at]!.charAt(1).toUpperCase()}${b[at]!.slice(2, -1)}}`)).join('/');
}

/** The operations of `from` as they read at `to`: their path parameters renamed where the paths differ. */
function renamed(operations: Record<string, Operation>, from: string, to: string): Record<string, Operation> {
  const names = new Map(from.split('/').flatMap((segment, at) => (segment.startsWith('{') && segment !== to.split('/')[at] ? [[segment.slice(1, -1), to.split('/')[at]!.slice(1, -1)] as const] : [])));
  return Object.fromEntries(
    Object.entries(operations).map(([method, operation]) => [
      method,
      { ...operation, parameters: operation.parameters?.map((parameter) => { const p = parameter as { in?: string; name?: string }; return p.in === 'path' && p.name && names.has(p.name) ? { ...p, name: names.get(p.name) } : p; }) },
    ]),
  );
}

/** Who may call a route, as the document says it: no credentials, the website's key, or a session. */
function security(policy: Policy | undefined) {
  if (policy === 'public') return [];
  return policy === 'apiKey' ? [{ apiKey: [] }] : [{ bearer: [] }];
}

/**
 * The OpenAPI document of every /api route, made from the routes' own Zod schemas (the same ones
 * that validate and serialize) and their policies: the tag is the path's area, the security
 * follows the policy, and `x-policy` names it exactly. Register it before any route: the
 * document collects routes as they are added. Non-API routes (the built client) are left out.
 */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Sitekeeper API', version: '1' },
      servers: [{ url: '/', description: 'This installation' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A website’s delivery API key (skp_…).' },
          bearer: { type: 'http', scheme: 'bearer', description: 'The session token sign-in answers with.' },
        },
      },
    },
    transform(document) {
      const { url, route } = document;
      if (!isApiPath(url)) return { schema: { hide: true }, url };
      const { schema } = jsonSchemaTransform(document);
      const policy = route.config?.policy;
      const area = url.split('/')[2] ?? '';
      return { url, schema: { ...schema, tags: [AREAS[area] ?? area], security: security(policy), 'x-policy': policy, ...(route.config?.multipart && { 'x-multipart': true }) } };
    },
    transformObject: (input) => completed(jsonSchemaTransformObject(input) as OpenApiDocument),
  });
  app.get('/api/openapi.json', { config: { policy: 'public' }, schema: { operationId: 'getOpenApi', summary: 'This document.' } }, async (_request, reply) =>
    // Public and the same for everyone, so any origin may read it (API tools in a browser).
    reply.header('access-control-allow-origin', '*').send(app.swagger()),
  );
}

const DELIVERY_PREFIX = '/api/public/';

/** The names of the component schemas `value` refers to, and those they refer to in turn. */
function referenced(value: unknown, schemas: Record<string, unknown>, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) referenced(item, schemas, found);
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const name = key === '$ref' && typeof inner === 'string' ? inner.split('#/components/schemas/')[1] : undefined;
      if (name && !found.has(name)) {
        found.add(name);
        referenced(schemas[name], schemas, found);
      } else referenced(inner, schemas, found);
    }
  }
  return found;
}

type WholeDocument = OpenApiDocument & { info?: object; tags?: { name: string }[]; components?: { securitySchemes?: Record<string, object> } };

/** The delivery API alone, as a website's developer reads it: its paths, the schemas they use, the key. */
export function deliveryDocument(document: WholeDocument): WholeDocument {
  const paths = Object.fromEntries(Object.entries(document.paths ?? {}).filter(([path]) => path.startsWith(DELIVERY_PREFIX)));
  const schemas = document.components?.schemas ?? {};
  return {
    ...document,
    info: {
      title: 'Delivery API',
      version: '1',
      description: `What a website reads of its published content, and where its visitors' contact forms are sent. Every call carries the website's key in the X-API-Key header (the website's home in the admin makes one). A preview link adds a token in ${PREVIEW_HEADER} that shows one draft. Answers carry an ETag: send it back in If-None-Match and an unchanged answer is a 304. A cache on the way (a CDN, a proxy, a browser) may keep an answer for 30 seconds and serve it for 60 more while it revalidates (Cache-Control); it varies by X-API-Key, and one website's ETag never matches another's answer.`,
    },
    tags: document.tags?.filter((tag) => tag.name === 'public'),
    paths,
    components: {
      securitySchemes: { apiKey: document.components!.securitySchemes!.apiKey! },
      schemas: Object.fromEntries([...referenced(paths, schemas)].toSorted().map((name) => [name, schemas[name]])),
    },
  };
}

/**
 * The delivery API's reference for a website's developers, at /delivery-api: Swagger UI, served
 * from the package's own files (no CDN, nothing sent anywhere, under the app's CSP), showing
 * `deliveryDocument`. Its "Try it out" calls this server with the key typed into it.
 */
export async function registerDeliveryReference(app: FastifyInstance) {
  await app.register(swaggerUi, {
    routePrefix: DELIVERY_REFERENCE_PATH,
    // The plain layout: the standalone one adds a bar for loading any other document by its URL.
    uiConfig: { layout: 'BaseLayout', deepLinking: true, defaultModelsExpandDepth: 0, displayRequestDuration: true },
    theme: { title: 'Delivery API' },
    transformSpecification: (document) => deliveryDocument(document as WholeDocument),
    // It builds a new document and leaves the given one as it was: no deep copy of the whole API per request.
    transformSpecificationClone: false,
  });
}
