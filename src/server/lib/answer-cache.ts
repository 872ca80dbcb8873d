import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../db/client.ts';
import { TtlCache } from './ttl-cache.ts';

/** An answer kept ready to send: its JSON and the ETag that names it. */
export interface CachedAnswer {
  body: string;
  etag: string;
}

/**
 * Public answers (the catalogue, the credit packs) kept serialized in memory, so a visitor's read
 * costs no query and no serialization. A trigger NOTIFYs `channel` when the tables behind them
 * change, at commit, whichever replica wrote: every answer is dropped then. Notices lost while the
 * LISTEN connection was down drop everything when it comes back; the time to live bounds the damage
 * meanwhile. The writing process also calls `changed()` itself, so its own next read is fresh
 * before its notice comes round.
 */
export class AnswerCache {
  private answers: TtlCache<string, CachedAnswer>;
  private readonly database: Database;
  private readonly channel: string;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  /** Bumped by every change: a read that began before one must not be kept after it. */
  private epoch = 0;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(database: Database, channel: string, { maxEntries = 1_000, ttlMs = 60_000 } = {}) {
    this.database = database;
    this.channel = channel;
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.answers = new TtlCache(maxEntries);
  }

  async start(): Promise<void> {
    this.unlisten ??= await this.database.listen(this.channel, () => this.changed(), { onReconnect: () => this.changed() });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  /** Drops every answer: the tables behind them changed. */
  changed(): void {
    this.epoch++;
    this.answers = new TtlCache(this.maxEntries);
  }

  /** The answer kept under `key`, or `load()`'s, kept only while listening and if nothing changed meanwhile. */
  async get(key: string, load: () => Promise<unknown>): Promise<CachedAnswer> {
    const known = this.answers.get(key);
    if (known) return known;
    const epoch = this.epoch;
    const answer = answerOf(await load());
    if (this.unlisten && epoch === this.epoch) this.answers.set(key, answer, this.ttlMs);
    return answer;
  }
}

function answerOf(value: unknown): CachedAnswer {
  const body = JSON.stringify(value);
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/** The OpenAPI answer of a read that ETags its answers. */
export const NotModified = Type.Null({ description: 'Not modified: the client holds this answer already (its ETag in If-None-Match)' });

/**
 * Sends a cached answer with its ETag: 304 with no body when the client holds it already
 * (`If-None-Match`). Browsers and proxies must ask again each time (`no-cache`), and keep the
 * answer apart per token: staff see drafts and archived items.
 */
export function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  reply.header('etag', answer.etag).header('cache-control', 'no-cache').header('vary', 'authorization');
  const held = request.headers['if-none-match'];
  if (held && held.split(',').some((tag) => tag.trim().replace(/^W\//, '') === answer.etag)) return reply.status(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

/**
 * Drops `cache`'s answers on every write that `scope` (the staff routes behind them) answers,
 * before the answer goes out: other replicas drop theirs on the tables' NOTIFY, and the writer's
 * next read is fresh before that notice comes round.
 */
export function dropAnswersOnWrite(scope: { addHook(name: 'onSend', hook: onSendHookHandler): unknown }, cache: AnswerCache) {
  scope.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET') cache.changed();
    return payload;
  });
}
