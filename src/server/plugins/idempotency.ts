import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/idempotency.ts';
import { badRequest, conflict, HttpProblem } from '../lib/problems.ts';

/** How long a key's answer is kept and replayed. */
const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** A first call that has not finished after this long died half-way: its key may be used again. */
const ABANDONED_MS = 60_000;
/** How long a repeated call waits for the first one to finish before answering 409. */
const WAIT_MS = 15_000;
const KEY = /^[\x21-\x7e]{1,255}$/;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request holds, until its answer is stored. */
    idempotencyKey: { userId: string; key: string } | null;
  }
  interface FastifyContextConfig {
    /**
     * The answer holds a secret shown once (an authenticator's key, recovery codes): it is never
     * kept for a replay, so a retry with the same key runs again.
     */
    secretAnswer?: boolean;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/**
 * `Idempotency-Key` on every signed-in call that writes (`POST`, `PUT`, `PATCH`, `DELETE` under
 * /v1), as Stripe does it: the first call with a key runs and its answer is stored; the same key
 * with the same request within 24 h answers that again and does nothing more (a double click, a
 * retry after a lost answer), also while the first still runs (it waits for it); the same key with
 * another request answers 422. A 5xx is not kept, so a retry runs again.
 */
/**
 * The key a creating call passes on to the card provider: its Idempotency-Key once this plugin
 * took it, or the request's own id, so a call always reaches the provider with one.
 */
export function callKey(request: FastifyRequest): string {
  return request.idempotencyKey?.key ?? request.id;
}

export default fp(
  async function idempotency(app: FastifyInstance, { db }: { db: Db }) {
    app.decorateRequest('idempotencyKey', null);

    app.addHook('preHandler', async (request, reply) => {
      const header = request.headers['idempotency-key'];
      if (header === undefined || !WRITES.has(request.method) || !request.url.startsWith('/v1/') || !request.user) return;
      if (typeof header !== 'string' || !KEY.test(header)) {
        throw badRequest('idempotency.invalidKey', {}, [{ field: 'Idempotency-Key', key: 'field.idempotencyKey' }]);
      }
      const userId = request.user.id;
      const hash = requestHash(request);
      const mine = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, header));
      const until = Date.now() + WAIT_MS;
      for (;;) {
        // An expired answer, or a first call that died half-way, frees the key.
        const now = Date.now();
        await db
          .delete(idempotencyKeys)
          .where(and(mine, or(lt(idempotencyKeys.createdAt, new Date(now - IDEMPOTENCY_TTL_MS)), and(isNull(idempotencyKeys.status), lt(idempotencyKeys.createdAt, new Date(now - ABANDONED_MS))))));
        const [claimed] = await db.insert(idempotencyKeys).values({ userId, key: header, requestHash: hash }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
        if (claimed) {
          request.idempotencyKey = { userId, key: header };
          return;
        }
        const [first] = await db.select().from(idempotencyKeys).where(mine);
        if (!first) continue;
        if (first.requestHash !== hash) {
          throw new HttpProblem(422, 'idempotency.reused');
        }
        if (first.status !== null) {
          reply.code(first.status).header('idempotent-replayed', 'true');
          if (first.contentType) reply.type(first.contentType);
          return reply.send(first.body ?? undefined);
        }
        if (Date.now() > until) throw conflict('idempotency.running');
        await sleep(50);
      }
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const held = request.idempotencyKey;
      if (!held) return payload;
      request.idempotencyKey = null;
      const mine = and(eq(idempotencyKeys.userId, held.userId), eq(idempotencyKeys.key, held.key));
      // Only text answers are kept (every JSON answer is text by now); anything else runs again.
      if (reply.statusCode >= 500 || request.routeOptions.config.secretAnswer || (payload !== null && payload !== undefined && typeof payload !== 'string')) {
        await db.delete(idempotencyKeys).where(mine);
      } else {
        const contentType = reply.getHeader('content-type');
        await db
          .update(idempotencyKeys)
          .set({ status: reply.statusCode, body: payload ?? null, contentType: typeof contentType === 'string' ? contentType : null })
          .where(mine);
      }
      return payload;
    });

    // Answers are kept a day; sweeping hourly keeps the table to about a day of writes.
    const sweep = setInterval(() => {
      void db
        .delete(idempotencyKeys)
        .where(lt(idempotencyKeys.createdAt, sql`now() - interval '1 day'`))
        .catch((err: unknown) => app.log.warn({ err }, 'idempotency key sweep failed'));
    }, 3600_000).unref();
    app.addHook('onClose', async () => clearInterval(sweep));
  },
  { name: 'idempotency' },
);
