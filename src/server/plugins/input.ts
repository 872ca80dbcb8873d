import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../lib/problems.ts';
import { unstorable } from '../lib/text.ts';

/** No request of the API nests deeper than a few levels; a deeper one is refused before it is walked. */
const MAX_DEPTH = 32;

/**
 * The first value inside `value` (object keys included) that `check` finds bad, with its dotted
 * path and why. A loop, not recursion: a deeply nested body must not exhaust the stack.
 */
function findBad(value: unknown, check: (v: unknown) => string | null): { field: string; message: string } | null {
  const stack: Array<[unknown, string, number]> = [[value, '', 0]];
  while (stack.length) {
    const [v, path, depth] = stack.pop()!;
    const why = check(v);
    if (why) return { field: path || 'value', message: why };
    // A raw body (Stripe's webhook) is bytes, checked by its own route.
    if (!v || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (depth >= MAX_DEPTH) return { field: path || 'value', message: `must not nest deeper than ${MAX_DEPTH} levels` };
    for (const [key, item] of Object.entries(v)) {
      const field = path ? `${path}.${key}` : key;
      const keyWhy = unstorable(key);
      if (keyWhy) return { field, message: `is a field name that ${keyWhy}` };
      stack.push([item, field, depth + 1]);
    }
  }
  return null;
}

const text = (v: unknown) => (typeof v === 'string' ? unstorable(v) : null);
const finite = (v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? 'is too large' : null);

function refuseBad(request: FastifyRequest, check: (v: unknown) => string | null) {
  for (const [part, value] of [
    ['path', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const found = findBad(value, check);
    if (!found) continue;
    const field = part === 'body' ? found.field : `${part}.${found.field}`;
    throw badRequest(`Invalid ${field}: it ${found.message}`, [{ field, message: found.message }]);
  }
}

/**
 * Input no route should ever see, refused for every route at once, before anything is written:
 * - text the database cannot store (a NUL, a lone surrogate) in a path, query or body field, and
 *   bodies nested absurdly deep;
 * - numbers too large to be numbers: Ajv coerces a query's "1e400" or a 400-digit page to Infinity
 *   and then skips its bounds (they check finite numbers only), so the database would get it.
 */
export default fp(async function input(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => refuseBad(request, text));
  app.addHook('preHandler', async (request) => refuseBad(request, finite));
});
