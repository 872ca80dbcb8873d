import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.ts';
import { isAppRoute, splitLocale } from '../../contract/routes.ts';
import { sendProblem } from './errors.ts';
import { HttpProblem } from '../lib/problems.ts';

/** What the browser app reads at start, so one build runs against any issuer or payment provider. */
function appConfig(config: Config) {
  return {
    version: config.version,
    auth: {
      audience: config.oidc.audience,
      providers: [{ id: config.oidc.embedded ? 'embedded' : 'keycloak', issuer: config.oidc.issuer, clientId: config.oidc.clientId }],
    },
    stripe: config.stripe.secretKey ? { mode: 'stripe' as const, publishableKey: config.stripe.publishableKey ?? null } : { mode: 'sandbox' as const, publishableKey: null },
    social: config.social,
    mumble: config.mumble,
  };
}

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const API_PREFIXES = ['/v1/', '/oidc/', '/_content/', '/docs', '/healthz', '/readyz'];

/** Serves the built web app: its files, its runtime settings, and index.html for app routes. */
export default fp(
  async function web(app: FastifyInstance, { config, isContentPage }: { config: Config; isContentPage: (path: string) => boolean | Promise<boolean> }) {
    const settings = appConfig(config);

    // docs/product.md, Guards: an address starting with www. moves, for good, to the same address without it.
    // Then any other address of this server (http://127.0.0.1:8080 for http://localhost:8080) moves
    // to PUBLIC_URL's: sign-in and the page's security policy only work on the origin the issuer and
    // the identity provider's redirects name. API calls and health checks answer on any address.
    const publicOrigin = new URL(config.publicUrl);
    // Default ports are often written out (a Host header of localhost:80): they name the same place.
    const hostOf = (host: string) => host.toLowerCase().replace(/:(80|443)$/, '');
    const publicHost = hostOf(publicOrigin.host);
    app.addHook('onRequest', async (request, reply) => {
      if (request.hostname.startsWith('www.')) return reply.redirect(`${request.protocol}://${request.host.slice(4)}${request.url}`, 301);
      const page = (request.method === 'GET' || request.method === 'HEAD') && !API_PREFIXES.some((p) => request.url.startsWith(p));
      if (page && hostOf(request.host) !== publicHost) return reply.redirect(`${publicOrigin.origin}${request.url}`, 302);
    });
    app.get('/app-config.json', { schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', 'no-cache').send(settings));
    app.get('/builds/latest.json', { schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', 'no-cache').send({ version: config.version }));

    const indexFile = path.join(config.webDir, 'index.html');
    const hasWeb = fs.existsSync(indexFile);
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: config.webDir,
        wildcard: false,
        index: false,
        // Hashed assets never change; everything else is revalidated.
        setHeaders: (res, file) => res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache'),
      });
    }

    app.setNotFoundHandler(async (request, reply) => {
      const wantsPage = request.method === 'GET' && !API_PREFIXES.some((p) => request.url.startsWith(p));
      if (wantsPage && hasWeb) {
        // The app shows 'Page not found' itself; the status tells crawlers and tools the same.
        const pathname = decodePath(request.url.split('?')[0]!);
        // Signed-in players read the competitions (content pages under /ranked) inside the dashboard.
        const page = splitLocale(pathname).path.replace(/^\/dashboard(?=\/ranked(\/|$))/, '');
        const known = isAppRoute(pathname) || (await isContentPage(page));
        return reply
          .code(known ? 200 : 404)
          .header('cache-control', 'no-cache')
          .sendFile('index.html');
      }
      return sendProblem(reply, new HttpProblem(404, 'request.routeNotFound', { method: request.method, path: request.url.split('?')[0]! }));
    });
  },
  { name: 'web' },
);
