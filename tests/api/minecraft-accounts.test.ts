import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { minecraftProfiles } from '../../src/server/db/schema/minecraft.ts';
import { decodePng, encodePng } from '../../src/server/modules/minecraft/png.ts';
import { useTestApp } from '../fixtures/app.ts';

const NOBODY = '00000000-0000-4000-8000-000000000000';

function pixel(png: Buffer, x: number, y: number): number[] {
  const image = decodePng(png);
  return [...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4)];
}

describe('Minecraft accounts, offline resolver (the default)', () => {
  const t = useTestApp();

  it('links the offline-mode UUID of a name, once per platform user', async () => {
    const linked = await t.current.as('alice', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Notch' } });
    expect(linked.statusCode).toBe(200);
    // Java: UUID.nameUUIDFromBytes("OfflinePlayer:Notch".getBytes(UTF_8))
    expect(linked.json()).toEqual({ mcUuid: 'b50ad385-829d-3141-a216-7e7d7539ba7f', mcName: 'Notch' });
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/user' })).json().mcUuid).toBe('b50ad385-829d-3141-a216-7e7d7539ba7f');
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Notch' } })).statusCode).toBe(200);
    const taken = await t.current.as('bob', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Notch' } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('users.minecraftTaken');
    expect((await t.current.as('alice', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Jeb_' } })).json().mcName).toBe('Jeb_');
    expect((await t.current.as('bob', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Notch' } })).statusCode).toBe(200);
  });

  it('lets one of two users linking the same account at once win', async () => {
    await Promise.all([t.current.as('alice', { method: 'GET', url: '/v1/user' }), t.current.as('bob', { method: 'GET', url: '/v1/user' })]);
    const both = await Promise.all(['alice', 'bob'].map((who) => t.current.as(who, { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Contested' } })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('serves name, head and skin, generated the same way every time from the name', async () => {
    const uuid = (await t.current.as('alice', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Steve_Builds' } })).json().mcUuid;
    const info = await t.current.as('alice', { method: 'GET', url: `/v1/user/minecraft/${uuid}` });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ uuid, name: 'Steve_Builds' });
    const head = Buffer.from(info.json().head, 'base64');
    expect(decodePng(head)).toMatchObject({ width: 64, height: 64 });

    const headPng = await t.current.as('bob', { method: 'GET', url: `/v1/user/minecraft/${uuid}/head` });
    expect(headPng.headers['content-type']).toBe('image/png');
    expect(headPng.rawPayload.equals(head)).toBe(true);
    const skin = await t.current.as('bob', { method: 'GET', url: `/v1/user/minecraft/${uuid}/skin` });
    expect(skin.headers['content-type']).toBe('image/png');
    expect(decodePng(skin.rawPayload)).toMatchObject({ width: 64, height: 64 });
    // The head is the skin's face (8..15, 8..15) scaled by 8.
    expect(pixel(head, 8 * 2 + 3, 8 * 4 + 3)).toEqual(pixel(skin.rawPayload, 10, 12));

    const other = (await t.current.as('bob', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'Alex_Mines' } })).json().mcUuid;
    const otherHead = (await t.current.as('bob', { method: 'GET', url: `/v1/user/minecraft/${other}` })).json().head;
    expect(otherHead).not.toBe(info.json().head);
  });

  it('answers 404 for a UUID never seen, 400 for a bad one or a bad name, 401 without a token', async () => {
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/user/minecraft/${NOBODY}` })).statusCode).toBe(404);
    const bad = await t.current.as('alice', { method: 'GET', url: '/v1/user/minecraft/nope/head' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('params.uuid');
    const badName = await t.current.as('alice', { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'way_too_long_for_minecraft' } });
    expect(badName.statusCode).toBe(400);
    expect(badName.json().errors[0].field).toBe('mcName');
    for (const [method, url] of [
      ['POST', '/v1/user/mcuuid'],
      ['GET', `/v1/user/minecraft/${NOBODY}`],
      ['GET', `/v1/user/minecraft/${NOBODY}/head`],
      ['GET', `/v1/user/minecraft/${NOBODY}/skin`],
    ] as const) {
      expect((await t.current.app.inject({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

/** A stand-in for api.mojang.com and sessionserver.mojang.com, answering in their formats. */
function fakeMojang() {
  const accounts = new Map([['jeb_', { id: '853c80ef3c3749fdaa49938b674adae6', name: 'jeb_' }]]);
  const red = [200, 30, 30, 255];
  const skin = { width: 64, height: 64, data: Buffer.alloc(64 * 64 * 4) };
  for (let y = 8; y < 16; y++) for (let x = 8; x < 16; x++) skin.data.set(red, (y * 64 + x) * 4);
  const skinPng = encodePng(skin);
  const state = { calls: [] as string[], limited: false, down: false, cutSkin: false, origin: '' };
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    state.calls.push(url);
    if (state.down) return res.writeHead(503).end();
    if (state.limited) {
      res.writeHead(429, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ path: url, errorMessage: 'Too many requests' }));
    }
    const byName = /^\/users\/profiles\/minecraft\/([^/]+)$/.exec(url);
    if (byName) {
      const name = decodeURIComponent(byName[1]!).toLowerCase();
      if (name === 'gone') {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ path: url, errorMessage: `Couldn't find any profile with name ${name}` }));
      }
      const account = accounts.get(name);
      if (!account) return res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(account));
    }
    const session = /^\/session\/minecraft\/profile\/([0-9a-f]{32})$/.exec(url);
    if (session) {
      const account = [...accounts.values()].find((a) => a.id === session[1]);
      if (!account) return res.writeHead(204).end();
      const textures = { timestamp: Date.now(), profileId: account.id, profileName: account.name, textures: { SKIN: { url: `${state.origin}/texture/red` } } };
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ id: account.id, name: account.name, properties: [{ name: 'textures', value: Buffer.from(JSON.stringify(textures)).toString('base64') }] }));
    }
    if (url === '/texture/red' && state.cutSkin) {
      // The connection drops half-way through the image.
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(skinPng.length) });
      res.write(skinPng.subarray(0, 20));
      return setTimeout(() => res.destroy(), 20);
    }
    if (url === '/texture/red') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(skinPng);
    }
    res.writeHead(404).end();
  });
  return { server, state, red };
}

describe('Minecraft accounts, Mojang resolver', () => {
  const mojang = fakeMojang();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    await new Promise<void>((resolve) => mojang.server.listen(0, '127.0.0.1', resolve));
    mojang.state.origin = `http://127.0.0.1:${(mojang.server.address() as AddressInfo).port}`;
    env.MOJANG_API_URL = mojang.state.origin;
    env.MOJANG_SESSION_URL = mojang.state.origin;
  });
  afterAll(() => new Promise<void>((resolve) => mojang.server.close(() => resolve())));
  const t = useTestApp(env);
  beforeEach(() => {
    Object.assign(mojang.state, { calls: [], limited: false, down: false, cutSkin: false });
  });
  const link = (who: string, mcName: string) => t.current.as(who, { method: 'POST', url: '/v1/user/mcuuid', payload: { mcName } });
  const expireCache = () => t.current.app.services.db.update(minecraftProfiles).set({ nameExpiresAt: sql`now() - interval '1 hour'`, skinExpiresAt: sql`now() - interval '1 hour'` });

  it('links by name with Mojang’s UUID and spelling, and keeps the answer', async () => {
    const res = await link('alice', 'JEB_');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ mcUuid: '853c80ef-3c37-49fd-aa49-938b674adae6', mcName: 'jeb_' });
    expect(mojang.state.calls).toEqual(['/users/profiles/minecraft/JEB_']);
    expect((await link('bob', 'jeb_')).statusCode).toBe(409);
    expect(mojang.state.calls).toHaveLength(1);
  });

  it('reads the skin from the session server and cuts the head from it', async () => {
    const info = await t.current.as('alice', { method: 'GET', url: '/v1/user/minecraft/853c80ef-3c37-49fd-aa49-938b674adae6' });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ name: 'jeb_' });
    expect(pixel(Buffer.from(info.json().head, 'base64'), 30, 30)).toEqual(mojang.red);
    expect(mojang.state.calls).toEqual(['/session/minecraft/profile/853c80ef3c3749fdaa49938b674adae6', '/texture/red']);
    const skin = await t.current.as('alice', { method: 'GET', url: '/v1/user/minecraft/853c80ef-3c37-49fd-aa49-938b674adae6/skin' });
    expect(pixel(skin.rawPayload, 8, 8)).toEqual(mojang.red);
    expect(mojang.state.calls).toHaveLength(2);
  });

  it('answers 404 for names Mojang does not know (204 or 404) and UUIDs it does not know', async () => {
    expect((await link('alice', 'Nobody_Here')).statusCode).toBe(404);
    expect((await link('alice', 'Gone')).statusCode).toBe(404);
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/user/minecraft/${NOBODY}` })).statusCode).toBe(404);
  });

  it('answers 503 with Retry-After when rate limited or down and nothing is cached', async () => {
    mojang.state.limited = true;
    const limited = await link('alice', 'jeb_');
    expect(limited.statusCode).toBe(503);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['content-type']).toContain('application/problem+json');
    mojang.state.limited = false;
    mojang.state.down = true;
    expect((await t.current.as('alice', { method: 'GET', url: '/v1/user/minecraft/853c80ef-3c37-49fd-aa49-938b674adae6/head' })).statusCode).toBe(503);
  });

  it('answers 503, not 500, when the skin download breaks off half-way', async () => {
    mojang.state.cutSkin = true;
    const cut = await t.current.as('alice', { method: 'GET', url: '/v1/user/minecraft/853c80ef-3c37-49fd-aa49-938b674adae6' });
    expect(cut.statusCode).toBe(503);
    expect(cut.headers['retry-after']).toBe('60');
  });

  it('falls back to stale cached data when down or rate limited', async () => {
    await link('alice', 'jeb_');
    const fresh = (await t.current.as('alice', { method: 'GET', url: '/v1/user/minecraft/853c80ef-3c37-49fd-aa49-938b674adae6' })).json();
    await expireCache();
    mojang.state.down = true;
    const stale = await t.current.as('alice', { method: 'GET', url: '/v1/user/minecraft/853c80ef-3c37-49fd-aa49-938b674adae6' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(fresh);
    expect(mojang.state.calls.filter((c) => c.startsWith('/session'))).toHaveLength(2);
    mojang.state.down = false;
    mojang.state.limited = true;
    expect((await link('alice', 'jeb_')).json()).toEqual({ mcUuid: '853c80ef-3c37-49fd-aa49-938b674adae6', mcName: 'jeb_' });
  });

  it('stops calling Mojang for a while after a 429 instead of adding to the limit', async () => {
    mojang.state.limited = true;
    expect((await link('alice', 'jeb_')).statusCode).toBe(503);
    mojang.state.limited = false;
    expect((await link('alice', 'jeb_')).statusCode).toBe(503);
    expect(mojang.state.calls).toHaveLength(1);
  });
});
