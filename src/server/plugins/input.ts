import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { MessageParams } from '../../contract/messages.ts';
import { HttpProblem, invalidField, type ErrorKey } from '../lib/problems.ts';
import { unstorable } from '../lib/text.ts';

/** No request of the API nests deeper than a few levels; a deeper one is refused before it is walked. */
const MAX_DEPTH = 32;

/**
 * The first value inside `value` (object keys included) that `check` finds bad, with its dotted
 * path and why. A loop, not recursion: a deeply nested body must not exhaust the stack.
 */
type Why = { key: ErrorKey; params?: MessageParams };

function findBad(value: unknown, check: (v: unknown) => Why | null): { field: string; why: Why } | null {
  const stack: Array<[unknown, string, number]> = [[value, '', 0]];
  while (stack.length) {
    const [v, path, depth] = stack.pop()!;
    const why = check(v);
    if (why) return { field: path || 'value', why };
    // A raw body (Stripe's webhook) is bytes, checked by its own route.
    if (!v || typeof v !== 'object' || Buffer.isBuffer(v)) continue;
    if (depth >= MAX_DEPTH) return { field: path || 'value', why: { key: 'field.tooDeep', params: { max: MAX_DEPTH } } };
    for (const [key, item] of Object.entries(v)) {
      const field = path ? `${path}.${key}` : key;
      const keyWhy = unstorable(key);
      if (keyWhy) return { field, why: { key: keyWhy === 'noNul' ? 'field.nameNoNul' : 'field.nameWellFormed' } };
      stack.push([item, field, depth + 1]);
    }
  }
  return null;
}

function text(v: unknown): Why | null {
  const why = typeof v === 'string' ? unstorable(v) : null;
  return why && { key: `field.${why}` };
}
const finite = (v: unknown): Why | null => (typeof v === 'number' && !Number.isFinite(v) ? { key: 'field.tooLarge' } : null);

function refuseBad(request: FastifyRequest, check: (v: unknown) => Why | null) {
  for (const [part, value] of [
    ['path', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const found = findBad(value, check);
    if (!found) continue;
    const field = part === 'body' ? found.field : `${part}.${found.field}`;
    throw invalidField(field, found.why.key, found.why.params);
  }
}

/**
 * Whether the route's body is an object none of whose fields is required: a call that has nothing
 * to say may then send no body at all (or an empty one), taken as `{}`, as the schema allows.
 */
function bodyOptional(request: FastifyRequest): boolean {
  const schema = request.routeOptions.schema?.body as { type?: unknown; required?: unknown[]; minProperties?: number } | undefined;
  return schema?.type === 'object' && !schema.required?.length && !schema.minProperties;
}

/**
 * Input no route should ever see, refused for every route at once, before anything is written:
 * - text the database cannot store (a NUL, a lone surrogate) in a path, query or body field, and
 *   bodies nested absurdly deep;
 * - numbers too large to be numbers: Ajv coerces a query's "1e400" or a 400-digit page to Infinity
 *   and then skips its bounds (they check finite numbers only), so the database would get it;
 * - JSON bodies whose bytes are not UTF-8: Node's decoding would turn them into U+FFFD and the
 *   route would store that replacement, so they are decoded strictly and refused instead. A route
 *   that needs the raw bytes (Stripe's webhook) removes this parser in its own scope.
 * A route whose body fields are all optional takes a missing or empty body as `{}` (bodyOptional).
 */
export default fp(
  async function input(app: FastifyInstance) {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      if ((body as Buffer).length === 0 && bodyOptional(request)) {
        done(null, {});
        return;
      }
      let text: string;
      try {
        text = utf8.decode(body as Buffer);
      } catch {
        done(new HttpProblem(400, 'request.invalidUtf8'), undefined);
        return;
      }
      parseJson(request, text, done);
    });
    app.addHook('preValidation', async (request) => {
      if (request.body === undefined && bodyOptional(request)) request.body = {};
      refuseBad(request, text);
    });
    app.addHook('preHandler', async (request) => refuseBad(request, finite));
  },
  { name: 'input' },
);
