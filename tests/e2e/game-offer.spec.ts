import type { Page } from '@playwright/test';
import { accessToken, expect, openTab, picturesInEachLook, seriousViolations, shoot, signUp, staffApi, test } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/game-offer';
const run = Date.now().toString(36).toLowerCase();

/** The dialog in each look, closed in between: the theme's toggle is under it. */
async function dialogShots(page: Page, lang: 'fr' | 'en', open: () => Promise<void>) {
  const dialog = page.getByTestId('offer-dialog');
  await picturesInEachLook(
    page,
    () => expect(page.getByTestId('offer-card')).toBeVisible(),
    async ({ theme, label }) => {
      await open();
      await shoot(page, { path: `${SHOTS}/offer-dialog-${lang}-${label}-${theme}.png` });
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    },
  );
}

test('an owner moves a server to a bigger plan then back to the smaller one: the prorated difference charged, then given back, each on the ledger', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(240_000);
  const page = await signUp(browser, `offer_${run}`);
  const token = await accessToken(page);
  const auth = { authorization: `Bearer ${token}` };
  const me = (await (await page.request.get('/v1/user', { headers: auth })).json()) as { id: string };

  // Staff: a game of its own with two 30-day plans, 30 and 120 credits; 200 credits for the player.
  const staff = await staffApi(page.request);
  const definition = await staff.post('/v1/definition/game', { name: { fr: `Offres ${run}`, en: `Plans ${run}` }, description: { fr: 'Essai', en: 'Trial' }, version: '1.21.4', published: true });
  expect(definition.status()).toBe(201);
  const definitionId = ((await definition.json()) as { id: string }).id;
  const plan = async (fr: string, en: string, priceCredits: number, ramMb: number) => {
    const res = await staff.post('/v1/definition/game/package', { definitionId, name: { fr, en }, ramMb, maxPlayers: 10, periodDays: 30, priceCredits });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const small = await plan('Petit', 'Small', 30, 1024);
  await plan('Grand', 'Large', 120, 2048);
  expect((await staff.post('/v1/user/credit', { userId: me.id, amount: 200, reason: 'Browser test credits' })).status()).toBe(200);
  const bought = await page.request.post('/v1/game/create', { headers: auth, data: { definitionId, packageId: small, name: 'Monde évolutif' } });
  expect(bought.status()).toBe(201);
  const gameId = ((await bought.json()) as { id: string }).id;

  // Running: a change of plan reaches its memory at the next restart.
  expect((await page.request.post(`/v1/game/${gameId}/start`, { headers: auth })).status()).toBe(200);
  await page.goto(`/dashboard/game/${gameId}`);
  await expect(page.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });

  // Up: 90 credits a month more, for the 30 days left of the period: 90.
  await openTab(page, 'Réglages');
  const card = page.getByTestId('offer-card');
  const dialog = page.getByTestId('offer-dialog');
  const open = async () => {
    await card.getByRole('button', { name: 'Changer d’offre' }).click();
    await expect(dialog.getByRole('radio', { name: /Grand/ })).toBeVisible();
  };
  await dialogShots(page, 'fr', async () => {
    await open();
    await dialog.getByRole('radio', { name: /Grand/ }).check();
    await expect(dialog.getByRole('button', { name: 'Payer 90 crédits et changer' })).toBeVisible();
  });
  await open();
  expect(await seriousViolations(page, { include: '[data-testid="offer-dialog"]' })).toEqual([]);
  await expect(dialog.getByRole('radio', { name: /Petit/ })).toBeDisabled();
  await expect(dialog.getByTestId('offer-amount')).toHaveText('90 crédits à payer maintenant');
  await expect(dialog.getByTestId('offer-confirm')).toBeDisabled();
  await dialog.getByRole('radio', { name: /Grand/ }).check();
  await dialog.getByRole('button', { name: 'Payer 90 crédits et changer' }).click();
  await expect(dialog.getByTestId('offer-done')).toHaveText(
    'Offre changée : 90 crédits pris sur votre solde. Le serveur tourne encore avec la mémoire de son ancienne offre : la nouvelle s’applique à son prochain redémarrage.',
  );
  await dialog.getByRole('button', { name: 'Fermer' }).click();
  await expect(page.getByTestId('credit-button').first()).toHaveText('80');
  await expect(card.getByTestId('offer-restart-needed')).toBeVisible();
  await openTab(page, 'Aperçu');
  await expect(page.getByTestId('game-restart-needed')).toHaveText(
    'L’offre a changé pendant que le serveur tournait : il garde son ancienne mémoire et sa limite de joueurs jusqu’à son prochain redémarrage.',
  );
  await expect(page.getByText('2 Go', { exact: false }).first()).toBeVisible();

  // Down, in English: the same 90 given back.
  await page.goto(`/en/dashboard/game/${gameId}/settings`);
  const openEn = async () => {
    await card.getByRole('button', { name: 'Change plan' }).click();
    await expect(dialog.getByRole('radio', { name: /Small/ })).toBeVisible();
  };
  await dialogShots(page, 'en', async () => {
    await openEn();
    await dialog.getByRole('radio', { name: /Small/ }).check();
    await expect(dialog.getByRole('button', { name: 'Change and get 90 credits back' })).toBeVisible();
  });
  await openEn();
  await dialog.getByRole('radio', { name: /Small/ }).check();
  await expect(dialog.getByTestId('offer-amount')).toHaveText('90 credits given back');
  await dialog.getByRole('button', { name: 'Change and get 90 credits back' }).click();
  await expect(dialog.getByTestId('offer-done')).toHaveText('Plan changed: 90 credits given back to your balance.');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('credit-button').first()).toHaveText('170');
  // Back on the plan it was launched with: no restart needed any more.
  await expect(card.getByTestId('offer-restart-needed')).toBeHidden();
  expect((await page.request.post(`/v1/game/${gameId}/stop`, { headers: auth })).status()).toBe(200);

  // The ledger: both lines with their amounts and reasons, in the page's language.
  await page.goto('/en/dashboard/account');
  const ledger = page.getByTestId('transactions-grid');
  await expect(ledger.getByRole('row').filter({ hasText: 'plan changed from Large to Small' })).toContainText('+90');
  await expect(ledger.getByRole('row').filter({ hasText: 'plan changed from Small to Large' })).toContainText('-90');
  await page.goto('/dashboard/account');
  await expect(ledger.getByRole('row').filter({ hasText: 'offre changée de Petit à Grand' })).toContainText('-90');
  await expect(ledger.getByRole('row').filter({ hasText: 'offre changée de Grand à Petit' })).toContainText('+90');
});

test('a balance short of an upgrade: the dialog says what is missing before, and the refusal links to buying credits', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signUp(browser, `offershort_${run}`);
  const token = await accessToken(page);
  const auth = { authorization: `Bearer ${token}` };
  const me = (await (await page.request.get('/v1/user', { headers: auth })).json()) as { id: string };
  const staff = await staffApi(page.request);
  const definition = await staff.post('/v1/definition/game', { name: { fr: `Cher ${run}`, en: `Dear ${run}` }, description: { fr: 'Essai', en: 'Trial' }, version: '1.21.4', published: true });
  const definitionId = ((await definition.json()) as { id: string }).id;
  const small = (
    (await (await staff.post('/v1/definition/game/package', { definitionId, name: { fr: 'Petit', en: 'Small' }, ramMb: 1024, maxPlayers: 10, periodDays: 30, priceCredits: 30 })).json()) as {
      id: string;
    }
  ).id;
  await staff.post('/v1/definition/game/package', { definitionId, name: { fr: 'Géant', en: 'Giant' }, ramMb: 4096, maxPlayers: 50, periodDays: 30, priceCredits: 900 });
  expect((await staff.post('/v1/user/credit', { userId: me.id, amount: 30, reason: 'Browser test credits' })).status()).toBe(200);
  const bought = await page.request.post('/v1/game/create', { headers: auth, data: { definitionId, packageId: small, name: 'Monde serré' } });
  const gameId = ((await bought.json()) as { id: string }).id;

  await page.goto(`/dashboard/game/${gameId}/settings`);
  await page.getByTestId('offer-card').getByRole('button', { name: 'Changer d’offre' }).click();
  const dialog = page.getByTestId('offer-dialog');
  await dialog.getByRole('radio', { name: /Géant/ }).check();
  await expect(dialog.getByTestId('offer-missing')).toContainText('Il manque 870 crédits à votre solde pour cette offre.');
  await dialog.getByRole('button', { name: 'Payer 870 crédits et changer' }).click();
  await expect(dialog.getByTestId('offer-error')).toContainText('il manque 870 crédits');
  await expect(dialog.getByTestId('offer-error').getByRole('link', { name: 'Acheter des crédits' })).toBeVisible();
  await expect(page.getByTestId('credit-button').first()).toHaveText('0');
});
