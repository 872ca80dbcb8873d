import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Tx } from '../../src/server/db/client.ts';
import { creditAccounts } from '../../src/server/db/schema/credits.ts';
import { startListeningApp, type TestApp } from '../fixtures/app.ts';
import { openStream } from '../fixtures/sse.ts';
import { liveResources, RESOURCE_CHANGE_EVENT } from '../../src/contract/live.ts';

/**
 * The LISTEN connection of a replica can drop (failover, idle timeout, a killed backend): it must
 * come back on its own, deliver what was notified while it was down, and forget cached values
 * whose change notices it may have missed. PGlite is embedded and never drops: this file runs on
 * PostgreSQL only (vitest.config.ts).
 */
describe('LISTEN connection lost', () => {
  let t: TestApp & { origin: string };
  let listenerName: string;
  beforeEach(async () => {
    t = await startListeningApp();
    const current = (await t.database.db.execute('select current_schema() as s')) as unknown as { rows: Array<{ s: string }> };
    // Each test has its own schema, and its listener says which: only this test's one is killed.
    listenerName = `blockhost-listener ${current.rows[0]!.s}`;
  });
  afterEach(() => t.close());

  /**
   * Ends this app's listener connection from inside `tx`. The app notices at once but waits 100 ms
   * before its first attempt, so what `tx` writes next commits while nobody listens. (Not
   * pg_terminate_backend's wait: it polls every 100 ms, as late as that attempt.)
   */
  async function killListener(tx: Tx) {
    const { rows } = (await tx.execute(sql`select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = ${listenerName}`)) as unknown as { rows: Array<{ ok: boolean }> };
    expect(rows).toEqual([{ ok: true }]);
  }

  it('reconnects, delivers live again, and replays what was notified while it was down', async () => {
    const token = await t.token('alice');
    const userId = (await t.as('alice', { method: 'GET', url: '/v1/user' })).json().id as string;
    const s = await openStream(`${t.origin}/v1/user/notifications/stream`, token);
    const before = (await t.as('alice', { method: 'POST', url: '/v1/user/notification' })).json();
    await s.waitFor('basic-link-event', 1);

    // The notice is committed right after the listener's backend is gone, long before the first
    // reconnect attempt: only reading the table back can bring it to the stream.
    const missed = await t.database.db.transaction(async (tx) => {
      await killListener(tx);
      return t.app.services.notifications.notify(userId, { key: 'text', params: { title: 'while down', description: 'missed live' }, link: null }, tx);
    });
    const [, replayed] = await s.waitFor('basic-link-event', 2);
    expect(replayed!.id).toBe(missed.id);
    expect(JSON.parse(replayed!.data).title).toBe('while down');

    const after = (await t.as('alice', { method: 'POST', url: '/v1/user/notification' })).json();
    const events = await s.waitFor('basic-link-event', 3);
    expect(events.map((e) => e.id)).toEqual([before.id, missed.id, after.id]);
    // Visible again in pg_stat_activity under its name.
    const { rows } = (await t.database.db.execute(sql`select count(*)::int as n from pg_stat_activity where application_name = ${listenerName}`)) as unknown as { rows: Array<{ n: number }> };
    expect(rows[0]!.n).toBe(1);
    s.close();
  });

  it('tells every open stream that anything may have changed, since the changes notified while it was down are lost', async () => {
    const userId = (await t.as('alice', { method: 'GET', url: '/v1/user' })).json().id as string;
    const s = await openStream(`${t.origin}/v1/user/notifications/stream`, await t.token('alice'));
    await t.database.db.transaction(async (tx) => {
      await killListener(tx);
      await t.app.services.notifications.changed(userId, { resource: 'games', ids: ['00000000-0000-4000-8000-000000000000'], type: 'updated' }, tx);
    });
    const events = await s.waitFor(RESOURCE_CHANGE_EVENT, liveResources.length);
    expect(events.map((e) => JSON.parse(e.data))).toEqual(liveResources.map((resource) => ({ resource, ids: [], type: 'updated' })));
    s.close();
  });

  it('drops cached balances, whose change notices may have been missed', async () => {
    const userId = (await t.as('alice', { method: 'GET', url: '/v1/user' })).json().id as string;
    // Read twice: the balance is now cached.
    expect((await t.as('alice', { method: 'GET', url: '/v1/user' })).json().balance).toBe(0);
    await t.database.db.transaction(async (tx) => {
      await killListener(tx);
      // Written behind the service's back, so only the (lost) trigger notice could tell the cache.
      await tx.insert(creditAccounts).values({ userId, balance: 50 });
    });
    // The cache's time to live is 30 s: well within 5 s, only the reconnect can have dropped it.
    await expect.poll(async () => (await t.as('alice', { method: 'GET', url: '/v1/user' })).json().balance, { timeout: 5000 }).toBe(50);
  });

  it('stops reconnecting once closed', async () => {
    await t.database.db.transaction((tx) => killListener(tx));
    // Closed while the first attempt waits: no attempt may follow, nor reject unhandled.
    await t.database.close();
    await new Promise((r) => setTimeout(r, 400));
    const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
    try {
      const { rows } = await other.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where application_name = $1', [listenerName]);
      expect(rows[0]!.n).toBe(0);
    } finally {
      await other.end();
    }
  });
});
