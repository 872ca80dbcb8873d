import { decodeJwt } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isEmpty, seed, SEED_ACCOUNTS } from '../../src/server/db/seed.ts';
import { startListeningApp, type TestApp } from '../fixtures/app.ts';
import { OidcClient } from '../fixtures/oidc-client.ts';

describe('seed', () => {
  let t: TestApp & { origin: string };
  beforeEach(async () => {
    t = await startListeningApp();
  });
  afterEach(() => t.close());

  it('creates the staff account README names and two players with credits, once', async () => {
    expect(await isEmpty(t.database)).toBe(true);
    expect(await seed(t.config, t.database)).toEqual(['staff', 'alice', 'bob']);
    expect(await seed(t.config, t.database)).toEqual([]);
    expect(await isEmpty(t.database)).toBe(false);

    const staff = SEED_ACCOUNTS[0];
    const tokens = await new OidcClient(t.origin).signIn(staff.email, staff.password);
    expect(decodeJwt(tokens.body.access_token!).realm_access).toEqual({ roles: ['staff', 'support'] });

    const alice = await new OidcClient(t.origin).signIn('alice', SEED_ACCOUNTS[1].password);
    const me = await (await fetch(`${t.origin}/v1/user`, { headers: { authorization: `Bearer ${alice.body.access_token}` } })).json();
    expect(me).toMatchObject({ name: 'alice', balance: 500 });
  });
});
