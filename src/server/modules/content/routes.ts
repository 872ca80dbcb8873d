import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ContentDoc, NavigationEntry, locales } from '../../../contract/content.ts';
import { notFound } from '../../lib/problems.ts';
import type { Services } from '../../services.ts';

const Locale = Type.Union(locales.map((l) => Type.Literal(l)));

/** Content pages for the catch-all route: public, cacheable, read from memory. */
const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const content = services.content;
  const tags = ['content'];
  const cache = { 'cache-control': 'public, max-age=60' };

  app.get(
    '/_content/query/:locale/*',
    { schema: { tags, summary: 'One content page', params: Type.Object({ locale: Locale, '*': Type.String({ maxLength: 200 }) }), response: { 200: ContentDoc } } },
    async (request, reply) => {
      const doc = content.get(request.params.locale, request.params['*']);
      if (!doc) throw notFound('page');
      return reply.headers(cache).send(doc);
    },
  );

  app.get(
    '/_content/list/:locale/*',
    { schema: { tags, summary: 'The pages of a folder (e.g. competitions)', params: Type.Object({ locale: Locale, '*': Type.String({ maxLength: 200 }) }), response: { 200: Type.Array(ContentDoc) } } },
    async (request, reply) => reply.headers(cache).send(content.list(request.params.locale, request.params['*'])),
  );

  app.get(
    '/_content/navigation',
    { schema: { tags, summary: 'Pages that appear in navigation', querystring: Type.Object({ locale: Type.Optional(Locale) }, { additionalProperties: false }), response: { 200: Type.Array(NavigationEntry) } } },
    async (request, reply) => reply.headers(cache).send(content.navigation(request.query.locale ?? 'fr')),
  );
};

export default routes;
