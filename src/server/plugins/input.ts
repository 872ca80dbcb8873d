import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/problems.ts';
import { findUnstorable } from '../lib/text.ts';

/** The first number in `value` that is not finite, with its dotted path. */
function findInfinite(value: unknown, path = ''): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path || 'value';
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = findInfinite(item, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return null;
}

const parts = (request: FastifyRequest) =>
  [
    ['path', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const;
const fieldName = (part: 'path' | 'query' | 'body', field: string) => (part === 'body' ? field : `${part}.${field}`);

/**
 * Input no route should ever see, refused for every route at once, before anything is written:
 * - text the database cannot store (a NUL, a lone surrogate) in a path, query or body field;
 * - numbers too large to be numbers: Ajv coerces a query's "1e400" or a 400-digit page to Infinity
 *   and then skips its bounds (they check finite numbers only), so the database would get it.
 */
export default fp(async function input(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of parts(request)) {
      const found = findUnstorable(value);
      if (!found) continue;
      const field = fieldName(part, found.field);
      throw badRequest(`Invalid ${field}: it ${found.message}`, [{ field, message: found.message }]);
    }
  });
  app.addHook('preHandler', async (request) => {
    for (const [part, value] of parts(request)) {
      const found = findInfinite(value);
      if (!found) continue;
      const field = fieldName(part, found);
      throw badRequest(`Invalid ${field}: it is too large`, [{ field, message: 'is too large' }]);
    }
  });
});
