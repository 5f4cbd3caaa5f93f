import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Policy } from '../contract/permissions';
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
      return { url, schema: { ...schema, tags: [AREAS[area] ?? area], security: security(policy), 'x-policy': policy } };
    },
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/api/openapi.json', { config: { policy: 'public' } }, async (_request, reply) =>
    // Public and the same for everyone, so any origin may read it (API tools in a browser).
    reply.header('access-control-allow-origin', '*').send(app.swagger()),
  );
}
