import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Page, PageQuery } from '../../../contract/common.ts';
import { GameDefinition, GamePackage, GamePackageUpdate, PackageQuery, gameDefCreate, gamePackageCreate } from '../../../contract/games.ts';
import { named } from '../../lib/schema.ts';
import { pageWindow } from '../../lib/paging.ts';
import type { Services } from '../../services.ts';

/** Staff and support see unpublished definitions too (support reads what staff edit). */
const seesDrafts = (roles: string[] | undefined) => !!roles?.some((r) => r === 'staff' || r === 'support');

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const catalogue = services.catalogue;
  const tags = ['catalogue'];
  const staff = app.requireRole('staff');

  app.get(
    '/v1/definition/game/list',
    {
      onRequest: app.identify,
      schema: { tags, summary: 'Game definitions with their packages, rating and price (no token; staff also see drafts)', security: [], querystring: PageQuery, response: { 200: Page(GameDefinition) } },
    },
    async (request) => catalogue.list(pageWindow(request.query), seesDrafts(request.user?.roles)),
  );

  app.get(
    '/v1/definition/game/:id',
    { onRequest: app.identify, schema: { tags, summary: 'A game definition with its packages, rating and price (no token)', security: [], params: IdParams, response: { 200: GameDefinition } } },
    async (request) => catalogue.get(request.params.id, seesDrafts(request.user?.roles)),
  );

  app.post(
    '/v1/definition/game',
    { onRequest: staff, schema: { tags, summary: 'Staff: add a game definition', body: named(gameDefCreate), response: { 201: GameDefinition } } },
    async (request, reply) => reply.status(201).send(await catalogue.createDefinition(request.body)),
  );

  app.put(
    '/v1/definition/game/:id',
    { onRequest: staff, schema: { tags, summary: 'Staff: replace a game definition', params: IdParams, body: named(gameDefCreate), response: { 200: GameDefinition } } },
    async (request) => catalogue.updateDefinition(request.params.id, request.body),
  );

  app.delete(
    '/v1/definition/game/:id',
    { onRequest: staff, schema: { tags, summary: 'Staff: delete a definition and its packages (409 when games use it)', params: IdParams, response: { 204: Type.Null() } } },
    async (request, reply) => {
      await catalogue.deleteDefinition(request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/v1/definition/game/package',
    { onRequest: staff, schema: { tags, summary: 'Staff: add a package to a definition', body: named(gamePackageCreate), response: { 201: GamePackage } } },
    async (request, reply) => reply.status(201).send(await catalogue.createPackage(request.body)),
  );

  app.put(
    '/v1/definition/game/package/:id',
    { onRequest: staff, schema: { tags, summary: 'Staff: change a package (games bought keep what they bought)', params: IdParams, body: GamePackageUpdate, response: { 200: GamePackage } } },
    async (request) => catalogue.updatePackage(request.params.id, request.body),
  );

  app.delete(
    '/v1/definition/game/package',
    { onRequest: staff, schema: { tags, summary: 'Staff: delete a package (409 when games use it)', querystring: PackageQuery, response: { 204: Type.Null() } } },
    async (request, reply) => {
      await catalogue.deletePackage(request.query.id);
      return reply.status(204).send(null);
    },
  );
};

export default routes;
