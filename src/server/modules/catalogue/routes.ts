import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { IdParams, Page, PageQuery } from '../../../contract/common.ts';
import { GameDefinition, GamePackage, GamePackageUpdate, PackageQuery, gameDefCreate, gamePackageCreate } from '../../../contract/catalogue.ts';
import { named } from '../../lib/schema.ts';
import { badRequest, HttpProblem, notFound } from '../../lib/problems.ts';
import { IMAGE_URL_PREFIX, MAX_IMAGE_BYTES } from './images.ts';
import { pageWindow } from '../../lib/paging.ts';
import { dropAnswersOnWrite, NotModified, sendAnswer } from '../../lib/answer-cache.ts';
import { signedIn, type SignedInTypeProvider } from '../../plugins/auth.ts';
import type { Services } from '../../services.ts';

/** Staff and support see unpublished definitions too (support reads what staff edit). */
const seesDrafts = (roles: string[] | undefined) => !!roles?.some((r) => r === 'staff' || r === 'support');

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const catalogue = services.catalogue;
  const tags = ['catalogue'];

  app.get(
    '/v1/definition/game/list',
    {
      onRequest: app.identify,
      schema: {
        tags,
        summary: 'Game definitions with their packages, rating and price (no token; staff also see drafts)',
        querystring: PageQuery,
        response: { 200: Page(GameDefinition), 304: NotModified },
      },
    },
    async (request, reply) => {
      const window = pageWindow(request.query);
      if (seesDrafts(request.user?.roles)) return catalogue.list(window, true);
      return sendAnswer(request, reply, await catalogue.publicList(window));
    },
  );

  app.get(
    '/v1/definition/game/:id',
    { onRequest: app.identify, schema: { tags, summary: 'A game definition with its packages, rating and price (no token)', params: IdParams, response: { 200: GameDefinition, 304: NotModified } } },
    async (request, reply) => {
      if (seesDrafts(request.user?.roles)) return catalogue.get(request.params.id, true);
      return sendAnswer(request, reply, await catalogue.publicGet(request.params.id));
    },
  );

  // Content-hashed names never change content: browsers and proxies keep them for a year.
  app.get(`${IMAGE_URL_PREFIX}:file`, { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 64 }) }) } }, async (request, reply) => {
    const bytes = await catalogue.readImage(request.params.file);
    if (!bytes) throw notFound('image');
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type('image/webp').send(bytes);
  });

  await signedIn(app, ['staff'], async (staffOnly) => {
    dropAnswersOnWrite(staffOnly, catalogue.answers);
    staffOnly.post('/v1/definition/game', { schema: { tags, summary: 'Staff: add a game definition', body: named(gameDefCreate), response: { 201: GameDefinition } } }, async (request, reply) =>
      reply.status(201).send(await catalogue.createDefinition(request.body, request.user.id)),
    );

    staffOnly.put(
      '/v1/definition/game/:id',
      { schema: { tags, summary: 'Staff: replace a game definition', params: IdParams, body: named(gameDefCreate), response: { 200: GameDefinition } } },
      async (request) => catalogue.updateDefinition(request.params.id, request.body, request.user.id),
    );

    staffOnly.delete(
      '/v1/definition/game/:id',
      { schema: { tags, summary: 'Staff: delete a definition and its packages (409 when games use it)', params: IdParams, response: { 204: Type.Null() } } },
      async (request, reply) => {
        await catalogue.deleteDefinition(request.params.id, request.user.id);
        return reply.status(204).send(null);
      },
    );

    staffOnly.post(
      '/v1/definition/game/package',
      { schema: { problems: [404], tags, summary: 'Staff: add a package to a definition', body: named(gamePackageCreate), response: { 201: GamePackage } } },
      async (request, reply) => reply.status(201).send(await catalogue.createPackage(request.body, request.user.id)),
    );

    // The package is named in the query, as the DELETE call has always named it: a path `/package/:id` would read
    // the same as `/:id/image` to a client (`/v1/definition/game/package/image`).
    staffOnly.put(
      '/v1/definition/game/package',
      {
        schema: { problems: [404], tags, summary: 'Staff: change a package (games bought keep what they bought)', querystring: PackageQuery, body: GamePackageUpdate, response: { 200: GamePackage } },
      },
      async (request) => catalogue.updatePackage(request.query.id, request.body, request.user.id),
    );

    staffOnly.delete(
      '/v1/definition/game/package',
      { schema: { problems: [404], tags, summary: 'Staff: delete a package (409 when games use it)', querystring: PackageQuery, response: { 204: Type.Null() } } },
      async (request, reply) => {
        await catalogue.deletePackage(request.query.id, request.user.id);
        return reply.status(204).send(null);
      },
    );

    // Multipart is parsed on this route only, one file of at most MAX_IMAGE_BYTES.
    await staffOnly.register(async (scope) => {
      const upload = scope.withTypeProvider<SignedInTypeProvider>();
      await upload.register(multipart, { limits: { fileSize: MAX_IMAGE_BYTES, files: 1 } });
      upload.post(
        '/v1/definition/game/:id/image',
        {
          schema: {
            problems: [413, 415, 422],
            tags,
            summary:
              'Staff: upload a definition’s image (multipart/form-data, field `image`: PNG, JPEG or WebP up to 5 MB; 415 other bytes, 413 bigger, 422 unreadable), stored as 16:9 WebP at 1x and 2x',
            params: IdParams,
            consumes: ['multipart/form-data'],
            body: {
              // Documents the form; the parts are read by the handler (the parsed body stays empty, hence nullable).
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    nullable: true,
                    required: ['image'],
                    properties: { image: { type: 'string', contentMediaType: 'application/octet-stream', description: 'PNG, JPEG or WebP, up to 5 MB' } },
                  },
                },
              },
            },
            response: { 200: GameDefinition },
          },
        },
        async (request) => {
          if (!request.isMultipart()) throw new HttpProblem(415, 'catalogue.multipartExpected');
          const file = await request.file();
          if (!file || file.fieldname !== 'image') throw badRequest('catalogue.imageFieldExpected', {}, [{ field: 'image', key: 'field.required' }]);
          let bytes: Buffer;
          try {
            bytes = await file.toBuffer();
          } catch (err) {
            if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpProblem(413, 'catalogue.imageTooLarge', { mb: MAX_IMAGE_BYTES / 1024 / 1024 });
            throw err;
          }
          return catalogue.setImage(request.params.id, bytes, request.user.id);
        },
      );
    });
  });
};

export default routes;
