import fs from 'node:fs';
import { decodeJwt } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isEmpty, seed, SEED_ACCOUNTS, SEED_DEFINITIONS, SEED_PACKS } from '../../src/server/db/seed.ts';
import { startListeningApp, type TestApp } from '../fixtures/app.ts';
import { OidcClient } from '../fixtures/oidc-client.ts';

describe('seed', () => {
  let t: TestApp & { origin: string };
  beforeEach(async () => {
    t = await startListeningApp();
  });
  afterEach(() => t.close());

  it('creates the staff and support accounts README names, two players with credits and the catalogue, once', async () => {
    expect(await isEmpty(t.database)).toBe(true);
    expect(await seed(t.config, t.database)).toEqual([
      'staff',
      'alice',
      'bob',
      'support',
      ...SEED_DEFINITIONS.map((d) => d.definition.name.en),
      'ranked modes',
      'tournaments',
      'credit packs',
      'subscription plans',
    ]);
    expect(await seed(t.config, t.database)).toEqual([]);
    expect(await isEmpty(t.database)).toBe(false);

    const staff = SEED_ACCOUNTS[0];
    const tokens = await new OidcClient(t.origin).signIn(staff.email, staff.password);
    expect(decodeJwt(tokens.body.access_token!).realm_access).toEqual({ roles: ['staff', 'support'] });
    const support = SEED_ACCOUNTS[3];
    const supportTokens = await new OidcClient(t.origin).signIn(support.email, support.password);
    expect(decodeJwt(supportTokens.body.access_token!).realm_access).toEqual({ roles: ['support'] });

    const alice = await new OidcClient(t.origin).signIn('alice', SEED_ACCOUNTS[1].password);
    const me = await (await fetch(`${t.origin}/v1/user`, { headers: { authorization: `Bearer ${alice.body.access_token}` } })).json();
    expect(me).toMatchObject({ name: 'alice', balance: 500 });

    const store = await (await fetch(`${t.origin}/v1/definition/game/list`)).json();
    expect(store.data.map((d: { version: string; packages: unknown[] }) => [d.version, d.packages.length])).toEqual([
      ['1.21.4', 3],
      ['1.20.4', 2],
      ['1.8.8', 2],
    ]);
    const packs = await (await fetch(`${t.origin}/v1/pricing`)).json();
    expect(packs.data.map((p: { credits: number; priceCents: number }) => [p.credits, p.priceCents])).toEqual(SEED_PACKS.map((p) => [p.credits, p.priceCents]));
    expect((await (await fetch(`${t.origin}/v1/subscription`)).json()).totalElements).toBe(1);
    // The competitions once written as pages: the past one won by the same player on every page, the others open.
    const past = await (await fetch(`${t.origin}/v1/tournaments?when=past`)).json();
    expect(past.data.map((x: { slug: string; winner: { mcName: string } }) => [x.slug, x.winner.mcName])).toEqual([['skywars-automne-2026', 'Notch_Fan_88']]);
    const skywars = await (await fetch(`${t.origin}/v1/tournaments/skywars-automne-2026`)).json();
    expect(skywars).toMatchObject({ status: 'FINISHED', results: [{ place: 1, player: { mcName: 'Notch_Fan_88' } }, { place: 2 }, { place: 3 }] });
    expect(skywars.bracket.every((m: { status: string }) => m.status === 'COMPLETED')).toBe(true);
    const upcoming = await (await fetch(`${t.origin}/v1/tournaments?when=upcoming`)).json();
    expect(upcoming.data.map((x: { slug: string }) => x.slug)).toEqual(['coupe-hiver-2026', 'build-battle-printemps-2027']);
    // The web build copies public/ to the site root, where these paths are served.
    for (const d of store.data) expect(fs.existsSync(`public${d.image}`), d.image).toBe(true);
  });
});
