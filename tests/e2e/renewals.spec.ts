import type { Page } from '@playwright/test';
import { accessToken, expect, shotsInEachLook, signUp, staffApi, test } from './fixtures.ts';

const run = Date.now().toString(36).toUpperCase();
const SHOTS = 'test-results/renewals';

/** The page at 1280 and 375 px, in both themes, for a person to look at. */
function screenshots(page: Page, name: string) {
  return shotsInEachLook(page, SHOTS, name, () => expect(page.locator('main h1').first()).toBeVisible());
}

// The test server runs a renewals round every 5 s (RENEWAL_INTERVAL_MS); a one-day period is within
// the notice days at once.
const ROUND_MS = 30_000;

test('a player buys a one-day server with a promo code, pays its renewal from the account page, is told when the balance is short and cancels the next one', async ({ browser }) => {
  test.setTimeout(180_000);
  const player = `renter_${run.toLowerCase()}`;
  const page = await signUp(browser, player);
  const me = (await (await page.request.get('/v1/user', { headers: { authorization: `Bearer ${await accessToken(page)}` } })).json()) as { id: string };

  // Staff: a one-day package of Survie at 10 credits, a half-price code, and 15 credits for the player.
  const list = await (await page.request.get('/v1/definition/game/list?size=100')).json();
  const survival = (list.data as Array<{ id: string; name: { fr: string } }>).find((d) => d.name.fr === 'Survie')!;
  const packageName = `Jour ${run}`;
  const code = `HALF${run}`;
  const api = await staffApi(page.request);
  expect(
    (await api.post('/v1/definition/game/package', { definitionId: survival.id, name: { fr: packageName, en: packageName }, ramMb: 1024, maxPlayers: 5, periodDays: 1, priceCredits: 10 })).status(),
  ).toBe(201);
  expect((await api.post('/v1/promocode', { code, kind: 'PERCENT_OFF', value: 50 })).status()).toBe(201);
  expect((await api.post('/v1/user/credit', { userId: me.id, amount: 15, reason: 'Browser test credits' })).status()).toBe(200);

  // The create form: the package, the code (half price), auto-renew off; its "buy credits" link comes back here.
  await page.goto(`/dashboard/creategame/${survival.id}`);
  await page.getByRole('radio', { name: new RegExp(packageName) }).check();
  await page.getByLabel('Code promo (facultatif)').fill(code);
  await page.getByRole('button', { name: 'Appliquer' }).click();
  await expect(page.getByTestId('game-promo-ok')).toHaveText(`Code ${code} : 50 % de réduction sur la première période`);
  await expect(page.getByTestId('balance-after')).toHaveText('10 crédits');
  await page.getByRole('checkbox', { name: 'Renouveler automatiquement' }).uncheck();
  await page.getByLabel('Nom du serveur').fill('Monde d’un jour');
  await page.getByRole('button', { name: 'Payer 5 crédits et créer' }).click();
  await expect(page.getByRole('heading', { name: 'Monde d’un jour', level: 1 })).toBeVisible();
  await expect(page.getByTestId('credit-button')).toHaveText('10');

  // The game page: paid period and the auto-renew switch (PATCH), off as bought.
  const renewal = page.getByTestId('renewal-card');
  await expect(renewal.getByTestId('period-end')).toContainText('Payé jusqu’au');
  const autoRenew = renewal.getByRole('checkbox', { name: 'Renouvellement automatique' });
  await expect(autoRenew).not.toBeChecked();
  await autoRenew.check();
  await expect(autoRenew).toBeChecked();
  await autoRenew.uncheck();
  await expect(autoRenew).not.toBeChecked();
  const gamePath = new URL(page.url()).pathname;

  // The renewal opens within a round: the game page offers to pay it; the list shows it too.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('renewal-pending')).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: ROUND_MS, intervals: [2000] });
  await expect(page.getByTestId('renewal-pending')).toContainText('Renouvellement de 10 crédits à payer avant le');
  await screenshots(page, 'game-renewal-pending');
  await page.goto('/dashboard');
  await expect(page.getByTestId('game-item').filter({ hasText: 'Monde d’un jour' }).getByTestId('game-renewal')).toHaveText('Renouvellement à payer');

  // The account page: pay it from the balance.
  await page.goto('/dashboard/account');
  const payments = page.getByTestId('game-payments-card');
  await expect(payments.getByRole('row').filter({ hasText: 'Monde d’un jour' })).toBeVisible();
  await payments.getByRole('button', { name: 'Payer 10 crédits' }).click();
  await expect(payments.getByRole('alert').first()).toContainText('Renouvellement payé');
  await expect(page.getByTestId('site-header').getByTestId('credit-button')).toHaveText('0');
  await expect(page.getByTestId('account-balance').getByTestId('credit-button')).toHaveText('0');
  // No "nothing to pay" here: the paid period still ends within the notice days, so a round (every
  // 5 s) may already have opened the next renewal. The empty list is checked once that one is cancelled.

  // The next renewal (the period now ends within the notice days too): the balance is short, then cancel it.
  // The round's new renewal is awaited through the API, then the page is read once: reloading the page
  // in a loop with a short bound each time never let a slow render finish on a busy machine.
  const token = await accessToken(page);
  await expect
    .poll(
      async () => {
        const games = (await (await page.request.get('/v1/game', { headers: { authorization: `Bearer ${token}` } })).json()) as { data: Array<{ name: string; renewal?: { status: string } | null }> };
        return games.data.find((g) => g.name === 'Monde d’un jour')?.renewal?.status ?? null;
      },
      { timeout: ROUND_MS, intervals: [1000] },
    )
    .toBe('PENDING');
  await page.reload();
  await expect(payments.getByRole('row').filter({ hasText: 'Monde d’un jour' })).toBeVisible();
  await payments.getByRole('button', { name: 'Payer 10 crédits' }).click();
  await expect(payments.getByRole('alert').first()).toContainText('Votre solde est insuffisant pour ce renouvellement.');
  await expect(payments.getByRole('link', { name: 'Acheter des crédits' })).toHaveAttribute('href', `/credits?back=${encodeURIComponent('/dashboard/account')}`);
  await payments.getByRole('button', { name: 'Ne pas renouveler' }).click();
  await expect(page.getByRole('dialog')).toContainText('Le serveur expirera à la fin de sa période payée');
  await page.getByRole('dialog').getByRole('button', { name: 'Ne pas renouveler' }).click();
  await expect(payments.getByRole('alert').first()).toContainText('Renouvellement annulé');
  await expect(payments.getByText('Aucun renouvellement à payer.')).toBeVisible();
  await page.goto(gamePath);
  await expect(page.getByTestId('renewal-pending')).toHaveCount(0);
  await page.context().close();
});
