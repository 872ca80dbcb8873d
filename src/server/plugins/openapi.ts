import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { namedBodies } from '../../contract/index.ts';
import { Problem } from '../../contract/common.ts';

declare module 'fastify' {
  interface FastifySchema {
    /** Error statuses the handler can answer besides those derived from the route (see `errorStatuses`). */
    problems?: readonly number[];
  }
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'patch', 'delete']);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `/v1/game/:id/status` → `/v1/game/{id}/status`; Fastify's `*` becomes a named `{path}` that clients can fill. */
const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}');

/** A stable name from the method and the path: `GET /v1/game/:id/status` → `getGameByIdStatus`. */
function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((s) => s && s !== 'v1')
    .map((s) => (s.startsWith(':') ? `By-${s.slice(1)}` : s === '*' ? 'By-path' : s));
  const camel = words
    .flatMap((w) => w.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
  return method.toLowerCase() + camel;
}

type Hook = { name?: string };
const hooksOf = (route: RouteOptions): Hook[] => [route.onRequest ?? []].flat() as Hook[];

/**
 * What an outside client must know of one operation and cannot read from its TypeBox schemas:
 * its security and every error status it can answer.
 */
interface OperationFacts {
  operationId: string;
  security: Array<Record<string, string[]>>;
  errors: number[];
  /** The level the caller needs on the game of the path's `id` (sharing), when the route checks one. */
  gameRole: string | undefined;
}

/**
 * The error statuses a route can answer, from what it declares. Every call can answer 400 (the
 * input plugin refuses unstorable text in any path, query or body) and 500; a token-checking hook
 * adds 401, a role check 403, a path parameter 404 and 414 (longer than the router takes), a body 413 and 415, the rate limit 429, a signed-in
 * write the Idempotency-Key's 409 and 422; the handler's own statuses come from `schema.problems`.
 */
function errorStatuses(route: RouteOptions, authenticated: boolean, roleChecked: boolean): number[] {
  const schema = route.schema ?? {};
  const statuses = new Set<number>([400, 500, ...(schema.problems ?? [])]);
  if (authenticated) statuses.add(401);
  if (roleChecked) statuses.add(403);
  if (route.url.includes(':') || route.url.endsWith('*')) [404, 414].forEach((s) => statuses.add(s));
  if (schema.body) [413, 415].forEach((s) => statuses.add(s));
  // A /v1 route without a limit of its own counts against the API's (plugins/security.ts).
  const rateLimit = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit;
  if (rateLimit || (rateLimit === undefined && route.url.startsWith('/v1/'))) statuses.add(429);
  const methods = [route.method].flat();
  if (authenticated && route.url.startsWith('/v1/') && methods.some((m) => WRITES.has(m))) [409, 422].forEach((s) => statuses.add(s));
  return [...statuses].sort((a, b) => a - b);
}

function factsOf(route: RouteOptions, method: string): OperationFacts {
  // A signed-in scope says so in its routes' config; the optional sign-in is a per-route hook, known by its name.
  const access = route.config?.access;
  const authenticated = !!access;
  const gameRole = route.config?.gameRole;
  // A shared game's people below the route's level are refused with 403 (those with no role get 404).
  const roleChecked = !!access?.roles || (gameRole !== undefined && gameRole !== 'VIEWER');
  const optional = hooksOf(route).some((h) => h.name === 'identify');
  const declared = route.schema?.security as OperationFacts['security'] | undefined;
  const security = declared ?? (authenticated ? [{ bearer: [] }] : optional ? [{}, { bearer: [] }] : []);
  return { operationId: (route.schema?.operationId as string | undefined) ?? operationIdOf(method, route.url), security, errors: errorStatuses(route, authenticated, roleChecked), gameRole };
}

type Json = Record<string, unknown>;
type Operation = Json & { parameters?: Json[]; responses: Record<string, Json> };

/** Adds each operation's facts to the document @fastify/swagger built from the schemas. */
function complete(document: Json, facts: Map<string, OperationFacts>): Json {
  const paths = document.paths as Record<string, Record<string, Operation>>;
  const renamed: Record<string, Record<string, Operation>> = {};
  for (const [path, item] of Object.entries(paths)) {
    const named = path.replace('{*}', '{path}');
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const fact = facts.get(`${method.toUpperCase()} ${named}`);
      if (!fact) throw new Error(`OpenAPI: no route facts for ${method.toUpperCase()} ${named}`);
      for (const parameter of operation.parameters ?? []) if (parameter.in === 'path' && parameter.name === '*') parameter.name = 'path';
      operation.operationId = fact.operationId;
      operation.security = fact.security;
      if (fact.gameRole) operation['x-game-role'] = fact.gameRole;
      for (const status of fact.errors) {
        operation.responses[status] ??= {
          description: STATUS_CODES[status] ?? 'Error',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        };
      }
    }
    renamed[named] = item;
  }
  const components = document.components as { schemas: Json };
  return { ...document, paths: renamed, components: { ...components, schemas: { ...components.schemas, Problem: JSON.parse(JSON.stringify(Problem)) } } };
}

/** OpenAPI 3.1 at /v1/openapi.json, from the same TypeBox schemas that validate requests. */
export default fp(
  async function openapi(app: FastifyInstance, { version }: { version: string }) {
    for (const schema of namedBodies) app.addSchema(schema);
    const routes = new Map<string, { route: RouteOptions; method: string }>();
    // Registered before the API modules, so it sees every route they add. A scope's own onRoute hooks
    // run after this one (its access goes into the route's config), so the facts are read once the document is made.
    app.addHook('onRoute', (route) => {
      if (route.schema?.hide) return;
      for (const method of [route.method].flat()) routes.set(`${method} ${openapiPath(route.url)}`, { route, method });
    });
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'BlockHost API',
          version,
          description: 'Game-server hosting and community platform. Errors are application/problem+json.',
          license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        },
        servers: [{ url: '/' }],
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            internalToken: { type: 'apiKey', in: 'header', name: 'X-Internal-Token' },
          },
        },
      },
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
      hideUntagged: false,
      transformObject: (document) => {
        const facts = new Map([...routes].map(([key, { route, method }]) => [key, factsOf(route, method)]));
        return complete((document as { openapiObject: Json }).openapiObject, facts);
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
    app.get('/v1/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
