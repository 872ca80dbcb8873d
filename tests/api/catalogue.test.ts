import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';
import { buyGame, catalogue } from '../fixtures/games.ts';

const staff = { roles: ['staff'] };
const definition = { name: { fr: 'Survie', en: 'Survival' }, description: { fr: 'Survivre', en: 'Survive' }, version: '1.21.4' };

describe('catalogue', () => {
  const t = useTestApp();

  it('lists published definitions without a token, with packages, price from and rating; staff also see drafts', async () => {
    const { definitionId } = await catalogue(t.current);
    const draft = await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/definition/game', payload: { ...definition, name: { fr: 'Brouillon', en: 'Draft' } } });
    expect(draft.statusCode).toBe(201);
    expect(draft.json()).toMatchObject({ published: false, image: null, packages: [], priceFrom: null, rating: { average: null, count: 0 } });

    const list = await t.current.app.inject({ url: '/v1/definition/game/list' });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ totalElements: 1, page: 0, size: 20 });
    expect(list.json().data[0]).toMatchObject({ id: definitionId, priceFrom: 100, rating: { average: null, count: 0 }, settings: { difficulty: 'hard' } });
    expect(list.json().data[0].packages.map((p: { name: unknown; description: unknown }) => [p.name, p.description])).toEqual([
      [{ fr: 'Petit', en: 'Small' }, null],
      [{ fr: 'Grand', en: 'Big' }, null],
    ]);

    // A player's token changes nothing; a stale token is ignored on a public call.
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/definition/game/list' })).json().totalElements).toBe(1);
    expect((await t.current.app.inject({ url: '/v1/definition/game/list', headers: { authorization: 'Bearer a.b.c' } })).json().totalElements).toBe(1);
    expect((await t.current.as('boss', { ...staff, method: 'GET', url: '/v1/definition/game/list' })).json().totalElements).toBe(2);
    expect((await t.current.as('helper', { roles: ['support'], method: 'GET', url: '/v1/definition/game/list?size=1&page=1' })).json()).toMatchObject({ totalElements: 2, page: 1, size: 1 });

    const one = await t.current.app.inject({ url: `/v1/definition/game/${definitionId}` });
    expect(one.statusCode).toBe(200);
    expect(one.json().packages).toHaveLength(2);
    expect((await t.current.app.inject({ url: `/v1/definition/game/${draft.json().id}` })).statusCode).toBe(404);
    expect((await t.current.as('boss', { ...staff, method: 'GET', url: `/v1/definition/game/${draft.json().id}` })).statusCode).toBe(200);
    expect((await t.current.app.inject({ url: '/v1/definition/game/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await t.current.app.inject({ url: '/v1/definition/game/nope' })).json().errors[0].field).toBe('params.id');
  });

  it('lets only staff create, update and delete: 401 without token, 403 for a player, 400 naming the bad field', async () => {
    const { app } = t.current;
    expect((await app.inject({ method: 'POST', url: '/v1/definition/game', payload: definition })).statusCode).toBe(401);
    const player = await t.current.as('alice', { method: 'POST', url: '/v1/definition/game', payload: definition });
    expect(player.statusCode).toBe(403);
    expect(player.headers['content-type']).toContain('application/problem+json');

    const old = await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/definition/game', payload: { ...definition, version: '1.7.10' } });
    expect(old.statusCode).toBe(400);
    expect(old.json().errors).toEqual([{ field: 'version', code: 'field.versionRange', message: 'doit être comprise entre 1.8.8 et 1.21.4' }]);
    expect((await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/definition/game', payload: { ...definition, version: '1.21.5' } })).statusCode).toBe(400);
    const extra = await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/definition/game', payload: { ...definition, price: 3 } });
    expect(extra.json().errors).toContainEqual({ field: 'price', code: 'validation.additionalProperties', message: "n'est pas un champ accepté" });
    const long = await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/definition/game', payload: { ...definition, name: { fr: 'x'.repeat(81), en: 'x' } } });
    expect(long.json().errors.map((e: { field: string }) => e.field)).toContain('name.fr');

    const { definitionId, smallId } = await catalogue(t.current);
    const put = await t.current.as('boss', {
      ...staff,
      method: 'PUT',
      url: `/v1/definition/game/${definitionId}`,
      payload: { ...definition, version: '1.8.8', image: '/images/games/minigames.svg', published: true },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ version: '1.8.8', image: '/images/games/minigames.svg', packages: [{ id: smallId }, {}] });
    const edited = await t.current.as('boss', { ...staff, method: 'PUT', url: `/v1/definition/game/${definitionId}`, payload: { ...definition, description: { fr: 'Nouveau', en: 'New' } } });
    expect(edited.json()).toMatchObject({ published: true, description: { en: 'New' }, image: null });
    expect((await t.current.as('alice', { method: 'PUT', url: `/v1/definition/game/${definitionId}`, payload: definition })).statusCode).toBe(403);
    expect((await t.current.as('boss', { ...staff, method: 'PUT', url: '/v1/definition/game/00000000-0000-4000-8000-000000000000', payload: definition })).statusCode).toBe(404);

    const pkg = { name: { fr: 'Énorme', en: 'Huge' }, ramMb: 8192, maxPlayers: 50, periodDays: 30, priceCredits: 50 };
    const updated = await t.current.as('boss', { ...staff, method: 'PUT', url: `/v1/definition/game/package?id=${smallId}`, payload: pkg });
    expect(updated.json()).toMatchObject({ id: smallId, definitionId, ...pkg, description: null });
    expect((await app.inject({ url: `/v1/definition/game/${definitionId}` })).json().priceFrom).toBe(50);
    const badPkg = await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/definition/game/package', payload: { ...pkg, definitionId, ramMb: 64 } });
    expect(badPkg.json().errors.map((e: { field: string }) => e.field)).toEqual(['ramMb']);
    expect((await t.current.as('boss', { ...staff, method: 'POST', url: '/v1/definition/game/package', payload: { ...pkg, definitionId: '00000000-0000-4000-8000-000000000000' } })).statusCode).toBe(
      404,
    );
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/definition/game/package', payload: { ...pkg, definitionId } })).statusCode).toBe(403);
  });

  it('deletes an unused package or definition, and answers 409 while games use them', async () => {
    const { definitionId, smallId, bigId } = await buyGame(t.current);
    expect((await t.current.app.inject({ method: 'DELETE', url: `/v1/definition/game/package?id=${bigId}` })).statusCode).toBe(401);
    expect((await t.current.as('alice', { method: 'DELETE', url: `/v1/definition/game/package?id=${bigId}` })).statusCode).toBe(403);
    expect((await t.current.as('boss', { ...staff, method: 'DELETE', url: '/v1/definition/game/package' })).json().errors[0].field).toBe('querystring.id');

    const used = await t.current.as('boss', { ...staff, method: 'DELETE', url: `/v1/definition/game/package?id=${smallId}` });
    expect(used.statusCode).toBe(409);
    expect(used.json().code).toBe('catalogue.packageInUse');
    expect((await t.current.as('boss', { ...staff, method: 'DELETE', url: `/v1/definition/game/${definitionId}` })).statusCode).toBe(409);

    expect((await t.current.as('boss', { ...staff, method: 'DELETE', url: `/v1/definition/game/package?id=${bigId}` })).statusCode).toBe(204);
    expect((await t.current.as('boss', { ...staff, method: 'DELETE', url: `/v1/definition/game/package?id=${bigId}` })).statusCode).toBe(404);
    expect((await t.current.app.inject({ url: `/v1/definition/game/${definitionId}` })).json().packages).toHaveLength(1);

    const unused = await catalogue(t.current);
    expect((await t.current.as('boss', { ...staff, method: 'DELETE', url: `/v1/definition/game/${unused.definitionId}` })).statusCode).toBe(204);
    expect((await t.current.app.inject({ url: `/v1/definition/game/${unused.definitionId}` })).statusCode).toBe(404);
  });

  it('names and describes packages in French and English; a missing or empty language is refused naming the field, nothing stored', async () => {
    const { definitionId, smallId } = await catalogue(t.current);
    const url = '/v1/definition/game/package';
    const fields = { ramMb: 2048, maxPlayers: 10, periodDays: 30, priceCredits: 180 };
    const description = { fr: 'Pour une bande d’amis.', en: 'For a group of friends.' };
    const created = await t.current.as('boss', { ...staff, method: 'POST', url, payload: { definitionId, name: { fr: 'Moyen', en: 'Medium' }, description, ...fields } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ definitionId, name: { fr: 'Moyen', en: 'Medium' }, description, ...fields });
    const mediumId = created.json().id as string;
    const packages = async () => (await t.current.app.inject({ url: `/v1/definition/game/${definitionId}` })).json().packages as Array<{ id: string; name: unknown; description: unknown }>;
    expect((await packages()).map((p) => p.name)).toEqual([
      { fr: 'Petit', en: 'Small' },
      { fr: 'Moyen', en: 'Medium' },
      { fr: 'Grand', en: 'Big' },
    ]);

    const refused = [
      [{ definitionId, name: { fr: 'Moyen' }, ...fields }, 'name.en'],
      [{ definitionId, name: 'Moyen', ...fields }, 'name'],
      [{ definitionId, name: { fr: 'Moyen', en: '' }, ...fields }, 'name.en'],
      [{ definitionId, name: { fr: 'Moyen', en: 'Medium' }, description: { en: 'Only English' }, ...fields }, 'description.fr'],
      [{ definitionId, name: { fr: 'Moyen', en: 'Medium', de: 'Mittel' }, ...fields }, 'name.de'],
    ] as const;
    for (const [payload, field] of refused) {
      const res = await t.current.as('boss', { ...staff, method: 'POST', url, payload });
      expect(res.statusCode, field).toBe(400);
      expect(
        res.json().errors.map((e: { field: string }) => e.field),
        field,
      ).toContain(field);
    }
    expect(await packages()).toHaveLength(3);

    // An update changes both languages; a description left out stays, null removes it.
    const put = (id: string, payload: object) => t.current.as('boss', { ...staff, method: 'PUT', url: `${url}?id=${id}`, payload });
    const renamed = await put(mediumId, { name: { fr: 'Moyen+', en: 'Medium+' }, ...fields });
    expect(renamed.json()).toMatchObject({ name: { fr: 'Moyen+', en: 'Medium+' }, description });
    const badUpdate = await put(mediumId, { name: { en: 'Medium' }, ...fields, priceCredits: 1 });
    expect(badUpdate.statusCode).toBe(400);
    expect(badUpdate.json().errors.map((e: { field: string }) => e.field)).toEqual(['name.fr']);
    expect((await packages()).find((p) => p.id === mediumId)).toMatchObject({ name: { fr: 'Moyen+', en: 'Medium+' }, description, priceCredits: 180 });
    expect((await put(mediumId, { name: { fr: 'Moyen', en: 'Medium' }, description: null, ...fields })).json().description).toBeNull();
    const described = await put(smallId, { name: { fr: 'Petit', en: 'Small' }, description: { fr: 'Pour débuter.', en: 'To start out.' }, ...fields });
    expect(described.json().description).toEqual({ fr: 'Pour débuter.', en: 'To start out.' });
  });

  it('lists the named bodies in the OpenAPI document', async () => {
    const doc = (await t.current.app.inject({ url: '/v1/openapi.json' })).json();
    for (const name of ['gameDefCreate', 'gamePackageCreate', 'gameCreate', 'playerRequest', 'playerPatchRequest', 'gameReviewCreate']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    expect(doc.paths['/v1/game/create'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/gameCreate');
    // A package is named in both languages, on creation as on update.
    const update = doc.paths['/v1/definition/game/package'].put.requestBody.content['application/json'].schema;
    for (const body of [doc.components.schemas.gamePackageCreate, update]) {
      expect(body.properties.name).toMatchObject({ type: 'object', required: ['fr', 'en'] });
      expect(body.required).not.toContain('description');
    }
  });
});
