import { apiAs, expect, inEachLook, mintToken, shoot, staffApi, test } from './fixtures.ts';

const SHOTS = 'test-results/store';
const run = Date.now().toString(36);

type Definition = { id: string; name: { fr: string }; rating: { average: number | null; count: number }; packages: Array<{ id: string; priceCredits: number }> };

test('a visitor reads the players’ reviews and the rating summary on a product page, and is offered to sign in to write one', async ({ browser, request }) => {
  test.setTimeout(120_000);
  // The seed has no review: a player who created a server of the game writes one through the API.
  const player = apiAs(request, await mintToken(`reviewer_${run}`));
  const staff = await staffApi(request);
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
  await inEachLook(
    visitor,
    () => expect(review).toBeVisible(),
    ({ theme, label }) => shoot(visitor, { path: `${SHOTS}/product-visitor-${label}-${theme}.png`, fullPage: true }),
  );
  await visitor.getByRole('button', { name: 'Se connecter pour donner mon avis' }).click();
  await expect(visitor).toHaveURL(/\/oidc\/interaction\//);
  await visitor.context().close();
});
