import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';
import { catalogue, fund, userId } from '../fixtures/games.ts';

/** `Idempotency-Key` on calls that spend or create: a double click or a retry buys once. */
describe('Idempotency-Key', () => {
  const t = useTestApp();

  async function offerAndCredits(credits = 1000) {
    const offer = await catalogue(t.current);
    await fund(t.current, 'alice', credits);
    return { definitionId: offer.definitionId, packageId: offer.smallId, name: 'Double click' };
  }
  const create = (payload: object, key?: string, user = 'alice') =>
    t.current.as(user, { method: 'POST', url: '/v1/game/create', payload, headers: key === undefined ? {} : { 'idempotency-key': key } });
  const games = async () => (await t.current.as('alice', { method: 'GET', url: '/v1/game' })).json().totalElements as number;
  const balance = async () => (await t.current.as('alice', { method: 'GET', url: '/v1/user' })).json().balance as number;

  it('buys one game for ten identical purchases sent at once with one key, and answers each with it', async () => {
    const body = await offerAndCredits();
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(body, 'submit-1')));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    expect(await games()).toBe(1);
    expect(await balance()).toBe(900);
    // And again later: the same answer, nothing spent.
    const later = await create(body, 'submit-1');
    expect(later.json().id).toBe(answers[0]!.json().id);
    expect(await balance()).toBe(900);
  });

  it('answers 422 for the same key with another body, and spends nothing', async () => {
    const body = await offerAndCredits();
    expect((await create(body, 'submit-2')).statusCode).toBe(201);
    const other = await create({ ...body, name: 'Another world' }, 'submit-2');
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency.reused');
    expect(await games()).toBe(1);
    expect(await balance()).toBe(900);
  });

  it('keeps each key to its user, and buys again without a key or with a new one', async () => {
    const body = await offerAndCredits();
    await fund(t.current, 'bob', 1000);
    expect((await create(body, 'same-key')).statusCode).toBe(201);
    expect((await create(body, 'same-key', 'bob')).statusCode).toBe(201);
    expect((await create(body)).statusCode).toBe(201);
    expect((await create(body, 'other-key')).statusCode).toBe(201);
    expect(await games()).toBe(3);
  });

  it('replays a refusal too, but runs again after 24 hours', async () => {
    const body = await offerAndCredits(50);
    const short = await create(body, 'submit-3');
    expect(short.statusCode).toBe(402);
    await fund(t.current, 'alice', 100);
    const replayed = await create(body, 'submit-3');
    expect(replayed.statusCode).toBe(402);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    const alice = await userId(t.current, 'alice');
    await t.current.app.services.db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where user_id = ${alice}`);
    expect((await create(body, 'submit-3')).statusCode).toBe(201);
    expect(await games()).toBe(1);
  });

  it('applies to staff writes and deletions too: a credit grant retried with its key credits once', async () => {
    const alice = await userId(t.current, 'alice');
    const grant = () =>
      t.current.as('boss', { method: 'POST', url: '/v1/user/credit', roles: ['staff'], payload: { userId: alice, amount: 500, reason: 'Prize' }, headers: { 'idempotency-key': 'grant-1' } });
    const [a, b] = await Promise.all([grant(), grant()]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().entryId).toBe(b.json().entryId);
    expect(await balance()).toBe(500);
  });

  it('refuses a malformed key with 400 and does nothing', async () => {
    const body = await offerAndCredits();
    for (const key of ['', 'x'.repeat(256), 'with space']) {
      const res = await create(body, key);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
    }
    expect(await games()).toBe(0);
  });
});
