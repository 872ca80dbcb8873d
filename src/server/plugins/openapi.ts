import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { namedBodies } from '../../contract/index.ts';

/** OpenAPI 3.1 at /v1/openapi.json, from the same TypeBox schemas that validate requests. */
export default fp(async function openapi(app: FastifyInstance, { version }: { version: string }) {
  for (const schema of namedBodies) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'BlockHost API', version, description: 'Game-server hosting and community platform' },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    hideUntagged: false,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/v1/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () => app.swagger());
});
