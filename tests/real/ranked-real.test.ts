import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rankedMatches } from '../../src/server/db/schema/competitions.ts';
import { useRealApp } from '../fixtures/real-app.ts';
import { join, landHit, within } from '../fixtures/minecraft.ts';

const VERSION = '1.8.8';

/**
 * Issue 35's headline, for real: the API with its loops (matchmaking, reconciler, supervision) on
 * the local driver's flying-squid servers; two mineflayer players queue, are matched, join the
 * match server at the address they are given, and one kills the other three times. The server's
 * own death lines decide: the result is recorded once, both ratings move the right way, both are
 * told, and the server is removed.
 */
describe('a ranked duel for real', () => {
  const real = useRealApp('ranked-real');
  const { as, bots } = real;

  const me = async (name: string) => (await as(name, { method: 'GET', url: '/v1/ranked/me' })).json();

  /** Polls `read` until `done` accepts its answer, within `ms` (the loops work on their own). */
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number, what: string): Promise<T> {
    const deadline = Date.now() + ms;
    let last: T | undefined;
    while (Date.now() < deadline) {
      last = await read();
      if (done(last)) return last;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${what} not within ${ms} ms; last ${JSON.stringify(last)}`);
  }

  it('two players queue, are matched, fight to three kills on the match server, and the result is recorded once', { timeout: 600_000 }, async () => {
    const staff = { roles: ['staff'] };
    const def = await as('boss', {
      ...staff,
      method: 'POST',
      url: '/v1/definition/game',
      payload: { name: { fr: 'Duel', en: 'Duel' }, description: { fr: 'Duel', en: 'Duel' }, version: VERSION, published: true, settings: { gameMode: 'survival', difficulty: 'peaceful' } },
    });
    expect(def.statusCode).toBe(201);
    const pack = await as('boss', {
      ...staff,
      method: 'POST',
      url: '/v1/definition/game/package',
      payload: { definitionId: def.json().id, name: { fr: 'Match', en: 'Match' }, ramMb: 512, maxPlayers: 4, periodDays: 30, priceCredits: 100 },
    });
    expect(pack.statusCode).toBe(201);
    await real.app.services.competitions.seedModes(new Map([[VERSION, def.json().id as string]]));
    const modeId = (await real.app.inject({ url: '/v1/ranked/modes' })).json().data[0].id as string;

    for (const [user, mcName] of [
      ['fighter', 'Fighter'],
      ['target', 'Target'],
    ]) {
      expect((await as(user!, { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName } })).statusCode).toBeLessThan(300);
      expect((await as(user!, { method: 'POST', url: '/v1/ranked/queue', payload: { modeId }, headers: { 'idempotency-key': `queue-${user}` } })).statusCode).toBe(201);
    }
    const ratingBefore = async (user: string) => (await me(user)).ratings.find((r: { modeId: string }) => r.modeId === modeId)?.rating ?? 1500;
    const before = { fighter: await ratingBefore('fighter'), target: await ratingBefore('target') };

    // Matched by the matchmaking loop; the server started by the reconciler; LIVE with its address.
    const live = await until(
      () => me('fighter'),
      (m) => m.match?.status === 'LIVE' && !!m.match.address,
      240_000,
      'the match LIVE',
    );
    const address = live.match.address as string;
    const matchId = live.match.id as string;
    expect((await me('target')).match).toMatchObject({ id: matchId, address });
    const port = Number(address.split(':').at(-1));

    // Only the match's players are let in.
    const stranger = await join(port, 'Mallory', VERSION);
    if (stranger.joined) bots.push(stranger.bot);
    expect(stranger.joined).toBe(false);

    const results = await Promise.all(['Target', 'Fighter'].map((name) => join(port, name, VERSION)));
    for (const result of results) if (result.joined) bots.push(result.bot);
    const [target, fighter] = bots;
    if (!fighter || !target || results.some((r) => !r.joined)) throw new Error('a player could not join');
    const seesTarget = () => expect.poll(() => fighter.players.Target?.entity?.id, { timeout: 30_000 }).toBe(target.entity.id);
    await seesTarget();
    await expect.poll(() => target.health, { timeout: 10_000 }).toBe(20);

    const hit = (what: string) => landHit(fighter, target, what);

    for (let death = 1; death <= 3; death++) {
      const died = new Promise<void>((resolve) => target.once('death', resolve));
      while (target.health > 0) await hit(`death ${death}`);
      await within(died, 15_000, `death ${death}`);
      if (death === 3) break;
      await within(new Promise<void>((resolve) => target.once('spawn', () => resolve())), 30_000, `respawn ${death}`);
      await seesTarget();
    }

    // The server's death lines decided: FINISHED, Fighter won 3 to 0, once.
    const finished = await until(
      () => as('fighter', { method: 'GET', url: `/v1/ranked/matches/${matchId}` }).then((r) => r.json()),
      (m) => m.status === 'FINISHED',
      60_000,
      'the result',
    );
    const fighterId = (await as('fighter', { method: 'GET', url: '/v1/user' })).json().id;
    expect(finished).toMatchObject({ status: 'FINISHED', winnerId: fighterId });
    expect(finished.players.map((p: { kills: number }) => p.kills).sort()).toEqual([0, 3]);
    expect(await ratingBefore('fighter')).toBeGreaterThan(before.fighter);
    expect(await ratingBefore('target')).toBeLessThan(before.target);
    const notices = async (user: string) => (await as(user, { method: 'GET', url: '/v1/user/notifications' })).json().data.map((n: { data: { key: string } }) => n.data.key);
    expect((await notices('fighter')).filter((k: string) => k === 'ranked.won')).toHaveLength(1);
    expect((await notices('target')).filter((k: string) => k === 'ranked.lost')).toHaveLength(1);
    expect(await notices('fighter')).toContain('ranked.ready');

    // The server is stopped and removed, its world gone.
    const removed = await until(
      async () => (await real.app.services.db.select().from(rankedMatches).where(eq(rankedMatches.id, matchId)))[0]!,
      (m) => m.serverRemovedAt !== null,
      120_000,
      'the server removed',
    );
    expect(fs.existsSync(real.driver.dir({ id: removed.gameId! } as never))).toBe(false);
  });
});
