import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { loadConfig } from '../../src/server/config.ts';
import { loadOrCreateKeys } from '../../src/server/identity/keys.ts';
import { signAccessToken } from '../../src/server/identity/tokens.ts';
import { expect, inEachLook, test } from './fixtures.ts';

const SHOTS = 'test-results/store';
const run = Date.now().toString(36);

const port = process.env.E2E_PORT ?? '8091';
// The test server's settings and identity keys (playwright.config.ts starts it on this data folder).
const serverConfig = loadConfig({ PORT: port, PUBLIC_URL: `http://localhost:${port}`, DATA_DIR: path.join(os.tmpdir(), `blockhost-e2e-${port}`) });

/** The API as a player made by their first call, with a token signed by the server's own keys (the token CLI's way, README). */
async function apiAs(request: APIRequestContext, user: string, roles: string[] = []) {
  const token = await signAccessToken(serverConfig, await loadOrCreateKeys(serverConfig.oidc.keysFile), { username: user, roles });
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: (url: string) => request.get(url, { headers }),
    post: (url: string, data: object) => request.post(url, { headers, data }),
  };
}

type Definition = { id: string; name: { fr: string }; rating: { average: number | null; count: number }; packages: Array<{ id: string; priceCredits: number }> };

test('a visitor reads the players’ reviews and the rating summary on a product page, and is offered to sign in to write one', async ({ browser, request }) => {
  test.setTimeout(120_000);
  // The seed has no review: a player who created a server of the game writes one through the API.
  const player = await apiAs(request, `reviewer_${run}`);
  const staff = await apiAs(request, 'staff', ['staff', 'support']);
  const me = (await (await player.get('/v1/user')).json()) as { id: string };
  const definitions = ((await (await request.get('/v1/definition/game/list?size=100')).json()) as { data: Definition[] }).data;
  const definition = definitions.find((d) => d.name.fr === 'Créatif')!;
  const pack = [...definition.packages].sort((a, b) => a.priceCredits - b.priceCredits)[0]!;
  expect((await staff.post('/v1/user/credit', { userId: me.id, amount: pack.priceCredits, reason: 'Review test credits' })).status()).toBe(200);
  expect((await player.post('/v1/game/create', { definitionId: definition.id, packageId: pack.id, name: `atelier-${run}`, autoRenew: false })).status()).toBe(201);
  const comment = `Des blocs à perte de vue ${run}`;
  expect((await player.post('/v1/game/review', { definitionId: definition.id, rating: 4, comment })).status()).toBe(201);
  const { rating } = (await (await request.get(`/v1/definition/game/${definition.id}`)).json()) as Definition;

  // A visitor, never signed in: the review, its author, and the definition's average and count.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/products/${definition.id}`);
  const review = visitor.getByTestId('review').filter({ hasText: comment });
  await expect(review).toBeVisible();
  await expect(review).toContainText(`reviewer_${run}`);
  await expect(review.getByRole('img', { name: '4 étoiles' })).toBeVisible();
  await expect(visitor.getByRole('img', { name: `Noté ${rating.average!.toFixed(1)} sur 5` })).toBeVisible();
  await expect(visitor.getByText(`${rating.count} avis`, { exact: true })).toBeVisible();
  // Writing one takes an account: the button leads to the sign-in page.
  await inEachLook(visitor, async ({ theme, label }) => {
    await visitor.reload();
    await expect(review).toBeVisible();
    await visitor.screenshot({ path: `${SHOTS}/product-visitor-${label}-${theme}.png`, fullPage: true });
  });
  await visitor.getByRole('button', { name: 'Se connecter pour donner mon avis' }).click();
  await expect(visitor).toHaveURL(/\/oidc\/interaction\//);
  await visitor.context().close();
});
