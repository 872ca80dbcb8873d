import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';
import { buyGame, catalogue, fund, userId } from '../fixtures/games.ts';
import { befriend } from '../fixtures/social.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('a game’s address name', () => {
  const t = useTestApp();

  /** A signed-in user's language is the one they saved, here by reading the site in English once. */
  const english = (user: string) => t.current.as(user, { method: 'GET', url: '/v1/user', headers: { cookie: 'locale=en' } });

  const buy = async (owner: string, name: string, addressName?: string) => {
    const offer = await catalogue(t.current);
    await fund(t.current, owner, 100);
    return t.current.as(owner, {
      method: 'POST',
      url: '/v1/game/create',
      payload: { definitionId: offer.definitionId, packageId: offer.smallId, name, ...(addressName === undefined ? {} : { addressName }) },
    });
  };

  it('is made from the owner’s and the game’s names when the buyer gives none, made unique with a number', async () => {
    const first = await buy('alice', 'Survie Été');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().addressName).toBe('alice-survie-ete');
    const second = await buy('alice', 'Survie été!');
    expect(second.json().addressName).toBe('alice-survie-ete-2');

    const suggest = await t.current.as('alice', { method: 'GET', url: '/v1/game/address-name/suggest?name=Survie%20%C3%A9t%C3%A9&addressName=alice-survie-ete' });
    expect(suggest.statusCode, suggest.body).toBe(200);
    expect(suggest.json()).toEqual({ suggestion: 'alice-survie-ete-3', domain: 'localhost', available: false, reason: 'Ce nom est déjà pris par un autre serveur.' });
    const free = await t.current.as('alice', { method: 'GET', url: '/v1/game/address-name/suggest?name=x&addressName=castle' });
    expect(free.json()).toMatchObject({ available: true });
    await english('alice');
    const reserved = await t.current.as('alice', { method: 'GET', url: '/v1/game/address-name/suggest?name=x&addressName=www' });
    expect(reserved.json()).toMatchObject({ available: false, reason: 'This name is reserved: choose another one.' });
  });

  it('takes the buyer’s choice when valid and free; refuses a bad, reserved or taken one in the caller’s language, charging nothing', async () => {
    const chosen = await buy('alice', 'Castle', 'alice-castle');
    expect(chosen.statusCode, chosen.body).toBe(201);
    expect(chosen.json()).toMatchObject({ addressName: 'alice-castle', addressNameChangedAt: null, addressNameNextChange: null });

    await english('bob');
    for (const bad of ['ab', '-castle', 'castle-', 'Castle', 'cas_tle', 'a'.repeat(33), 'châ-teau', 'cas--tle']) {
      const res = await buy('bob', 'Bad', bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errors).toEqual([expect.objectContaining({ field: 'addressName', code: 'games.addressNameInvalid' })]);
    }
    const reserved = await buy('bob', 'Play', 'play');
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json().errors[0]).toMatchObject({ field: 'addressName', message: 'This name is reserved: choose another one.' });
    const taken = await buy('bob', 'Castle', 'alice-castle');
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'games.addressNameTaken', errors: [{ field: 'addressName', message: 'This name is already taken by another server.' }] });
    // Nothing was charged for the ten refusals: bob has the 100 credits given before each.
    expect((await t.current.as('bob', { method: 'GET', url: '/v1/user' })).json().balance).toBe(1000);

    // A deleted game's name is free again.
    await t.current.as('alice', { method: 'POST', url: `/v1/game/${chosen.json().id}/delete`, payload: { name: 'Castle' } });
    expect((await buy('bob', 'Castle', 'alice-castle')).statusCode).toBe(201);
  });

  it('is changed by its owner once a day (409 with when it may be again); a co-admin may not (403), a stranger sees nothing (404)', async () => {
    const { gameId } = await buyGame(t.current, 'alice', 'Castle');
    await buyGame(t.current, 'carol', 'Other');
    const taken = (await t.current.as('carol', { method: 'GET', url: '/v1/game' })).json().data[0].addressName as string;
    const rename = (who: string, addressName: string) => t.current.as(who, { method: 'PUT', url: `/v1/game/${gameId}/address-name`, payload: { addressName } });

    expect((await rename('alice', 'www')).statusCode).toBe(400);
    expect((await rename('alice', taken)).statusCode).toBe(409);
    const renamed = await rename('alice', 'castle-world');
    expect(renamed.statusCode, renamed.body).toBe(200);
    const changedAt = t.current.clock.now.toISOString();
    const next = new Date(t.current.clock.now.getTime() + DAY_MS).toISOString();
    expect(renamed.json()).toEqual({ addressName: 'castle-world', addressNameChangedAt: changedAt, addressNameNextChange: next });
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json()).toMatchObject({ addressName: 'castle-world', addressNameNextChange: next });

    t.current.clock.advance(DAY_MS - 60_000);
    const early = await rename('alice', 'castle-again');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'games.addressNameChangedRecently', params: { next } });
    expect(early.json().detail).toContain('une fois par jour');
    // The same name again changes nothing and is no change: answered as it stands, even within the day.
    const same = await rename('alice', 'castle-world');
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual({ addressName: 'castle-world', addressNameChangedAt: changedAt, addressNameNextChange: next });

    await befriend(t.current, 'alice', 'bob');
    const grant = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/access`, payload: { friendId: await userId(t.current, 'bob'), role: 'COADMIN' } });
    expect(grant.statusCode, grant.body).toBe(201);
    expect((await rename('bob', 'bobs-castle')).statusCode).toBe(403);
    expect((await rename('dave', 'daves-castle')).statusCode).toBe(404);

    t.current.clock.advance(60_000);
    const later = await rename('alice', 'castle-again');
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json().addressName).toBe('castle-again');
    // A day on, the same name again is still no change: it does not spend the day's change.
    t.current.clock.advance(DAY_MS);
    const again = await rename('alice', 'castle-again');
    expect(again.json()).toMatchObject({ addressName: 'castle-again', addressNameChangedAt: later.json().addressNameChangedAt });
    expect((await rename('alice', 'castle-third')).statusCode).toBe(200);
    // The old name is free for anyone.
    expect((await buy('dave', 'Mine', 'castle-world')).statusCode).toBe(201);
    const activity = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/activity` })).json();
    const renames = activity.data.filter((e: { action: string }) => e.action === 'game.rename');
    expect(renames.map((e: { detail: { addressName: string } }) => e.detail.addressName)).toEqual(['castle-third', 'castle-again', 'castle-world']);
  });
});
