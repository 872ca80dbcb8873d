import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { accessToken, expect, shoot, shotsInEachLook, signUp, staffApi, test, useTheme } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/credits';
const run = Date.now().toString(36).toUpperCase();

/** Staff make promo codes through the API, as the back office would. */
async function makePromoCodes(request: APIRequestContext, codes: object[]) {
  const staff = await staffApi(request);
  for (const code of codes) expect((await staff.post('/v1/promocode', code)).status()).toBe(201);
}

/** Each page at 1280 and 375 px, in the light and the dark theme. */
function screenshots(page: Page, name: string, path: string, ready: (page: Page) => Promise<void>) {
  return shotsInEachLook(page, SHOTS, name, () => page.goto(path).then(() => ready(page)));
}

test('a visitor sees the packs on /credits and is asked to sign in to buy', async ({ page }) => {
  await page.goto('/credits');
  await expect(page.getByRole('heading', { name: 'Acheter des crédits', level: 1 })).toBeVisible();
  await expect(page.getByTestId('credit-pack')).toHaveCount(3);
  await expect(page.getByTestId('credit-pack').first()).toContainText('500 crédits');
  await expect(page.getByTestId('credit-pack').first()).toContainText('4,99');
  await expect(page.getByRole('button', { name: 'Choisir ce pack' })).toHaveCount(0);
  await page.goto('/en/credits');
  await expect(page.getByTestId('credit-pack').nth(1)).toContainText('+ 100 free credits');
  await expect(page.getByText('Sign in to buy credits.')).toBeVisible();
  for (const theme of ['light', 'dark'] as const) {
    await useTheme(page, theme);
    for (const [label, width] of [
      ['desktop', 1280],
      ['phone', 375],
    ] as const) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.goto('/credits');
      await expect(page.getByTestId('credit-pack')).toHaveCount(3);
      await shoot(page, { path: `${SHOTS}/credits-visitor-${label}-${theme}.png`, fullPage: true });
    }
  }
  await page.getByTestId('credits-sign-in').click();
  await expect(page).toHaveURL(/\/oidc\/interaction\//);
});

test('a new player buys a pack with a promo code in the sandbox, gets the invoice and spends the credits on a server', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const bonusCode = `BONUS${run}`;
  const expiredCode = `OLD${run}`;
  await makePromoCodes(request, [
    { code: bonusCode, kind: 'BONUS_CREDITS', value: 50 },
    { code: expiredCode, kind: 'PERCENT_OFF', value: 10, validFrom: '2020-01-01T00:00:00Z', validUntil: '2020-02-01T00:00:00Z' },
  ]);
  const page = await signUp(browser, `buyer_${run.toLowerCase()}`);
  const packs = (await (await page.request.get('/v1/pricing')).json()).data as Array<{ id: string; label: string }>;
  await expect(page.getByTestId('credit-button')).toHaveText('0');

  // The pack, then the codes: an expired one says why, a good one says what it gives before paying.
  await page.goto('/credits');
  await page.getByTestId('credit-pack').filter({ hasText: 'Découverte' }).getByRole('button', { name: 'Choisir ce pack' }).click();
  const summary = page.getByTestId('credits-summary');
  await expect(summary.getByTestId('summary-total')).toHaveText(/4,99\s€/);
  await summary.getByLabel('Code promo').fill('NOPE-' + run);
  await summary.getByRole('button', { name: 'Appliquer' }).click();
  await expect(page.getByTestId('promo-error')).toHaveText('Ce code promo n’existe pas.');
  await summary.getByLabel('Code promo').fill(expiredCode);
  await summary.getByRole('button', { name: 'Appliquer' }).click();
  await expect(page.getByTestId('promo-error')).toContainText('Ce code promo ne peut pas être utilisé');
  await summary.getByLabel('Code promo').fill(bonusCode.toLowerCase());
  await summary.getByRole('button', { name: 'Appliquer' }).click();
  await expect(page.getByTestId('promo-ok')).toContainText(`Code ${bonusCode} : + 50 crédits offerts`);
  await expect(summary.getByTestId('summary-receive')).toHaveText('550 crédits');

  // The card step: the sandbox says no money moves; a declined card says so, a good one pays.
  await page.getByTestId('credits-continue').click();
  await expect(page.getByTestId('sandbox-notice')).toContainText('Mode test : aucun argent n’est débité');
  await expect(page.getByTestId('sandbox-notice')).toContainText('4000 0000 0000 9995');
  await page.getByLabel('Numéro de carte').fill('4000 0000 0000 0002');
  await page.getByRole('button', { name: /^Payer 4,99/ }).click();
  await expect(page.getByTestId('card-error')).toHaveText('Votre carte a été refusée. Essayez une autre carte.');
  await page.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
  await page.getByRole('button', { name: /^Payer 4,99/ }).click();
  await expect(page.getByTestId('credits-received')).toContainText('550 crédits ont été ajoutés à votre compte.');
  await expect(page.getByTestId('new-balance')).toHaveText('Nouveau solde : 550 crédits');
  await expect(page.getByTestId('credit-button')).toHaveText('550');
  await expect(page.getByRole('link', { name: 'Voir mes factures' })).toHaveAttribute('href', '/dashboard/account');

  // Coming back from Stripe: the result page reads the payment itself, whatever the redirect says.
  const auth = { authorization: `Bearer ${await accessToken(page)}` };
  const paid = (await (await page.request.get('/v1/purchase/payments', { headers: auth })).json()).data as Array<{ id: string; status: string }>;
  const succeeded = paid.find((p) => p.status === 'SUCCEEDED')!;
  await page.goto(`/stripe_result?paymentId=${succeeded.id}&payment_intent=pi_test&redirect_status=succeeded`);
  await expect(page.getByTestId('credits-received')).toContainText('550 crédits ont été ajoutés à votre compte.');
  const declined = (await (await page.request.post('/v1/payment/stripe', { headers: auth, data: { pricingId: packs[0]!.id } })).json()) as { paymentId: string };
  expect((await page.request.post(`/v1/payment/sandbox/${declined.paymentId}/confirm`, { headers: auth, data: { cardNumber: '4000000000009995' } })).status()).toBe(402);
  await page.goto(`/en/stripe_result?paymentId=${declined.paymentId}&payment_intent=pi_test&redirect_status=failed`);
  await expect(page.getByTestId('payment-failed')).toContainText('Your card has insufficient funds. Try another card.');
  await expect(page.getByTestId('payment-failed').getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/en/credits');
  await page.goto('/stripe_result');
  await expect(page.getByText('Ce lien de paiement est incomplet.')).toBeVisible();

  // The account: the ledger, the invoice and its PDF.
  await page.goto('/dashboard/account');
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  await expect(page.getByTestId('transactions-grid')).toContainText('+500');
  await expect(page.getByTestId('transactions-grid')).toContainText('+50');
  const invoices = page.getByTestId('invoices-grid');
  await expect(invoices.getByRole('row')).toHaveCount(2);
  await expect(invoices).toContainText('4,99');
  // The PDF is saved as a file named after the invoice number shown, not opened in a nameless tab.
  const number = (await invoices
    .getByText(/BH-\d{4}-\d{6}/)
    .first()
    .textContent())!.match(/BH-\d{4}-\d{6}/)![0];
  const pdf = page.waitForResponse((r) => /\/v1\/purchase\/invoice\/[^/]+$/.test(new URL(r.url()).pathname));
  const download = page.waitForEvent('download');
  let popups = 0;
  page.on('popup', () => popups++);
  await invoices.getByRole('button', { name: `Télécharger la facture ${number} en PDF` }).click();
  const answer = await pdf;
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toContain('application/pdf');
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${number}.pdf`);
  const bytes = await readFile((await file.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  expect(popups).toBe(0);
  await expect(page.getByTestId('subscription-card')).toContainText('Abonnement mensuel');
  await screenshots(page, 'account', '/dashboard/account', async (p) => {
    await expect(p.getByTestId('invoices-grid').getByRole('row')).toHaveCount(2);
    await expect(p.getByTestId('subscription-card').getByRole('button', { name: 'S’abonner' })).toBeVisible();
  });

  // The credits pay for a server.
  const list = await (await page.request.get('/v1/definition/game/list?size=100')).json();
  const survival = (list.data as Array<{ id: string; name: { fr: string } }>).find((d) => d.name.fr === 'Survie')!;
  await page.goto(`/dashboard/creategame/${survival.id}`);
  await expect(page.getByTestId('balance-after')).toHaveText('450 crédits');
  await page.getByLabel('Nom du serveur').fill('Monde acheté');
  await page.getByRole('button', { name: 'Payer 100 crédits et créer' }).click();
  await expect(page.getByRole('heading', { name: 'Monde acheté', level: 1 })).toBeVisible();
  await expect(page.getByTestId('credit-button')).toHaveText('450');

  // The card step, for the screenshots: a new payment of the first pack, left unpaid.
  await screenshots(page, 'credits-card-step', '/credits', async (p) => {
    await p.getByTestId('credit-pack').first().getByRole('button').click();
    await p.getByTestId('credits-continue').click();
    await expect(p.getByTestId('sandbox-notice')).toBeVisible();
  });
  await page.context().close();
});

test('a player subscribes to the monthly plan with a sandbox card, cancels it after a confirmation and resumes it', async ({ browser }) => {
  const page = await signUp(browser, `subscriber_${run.toLowerCase()}`);
  await page.goto('/dashboard/account');
  const card = page.getByTestId('subscription-card');
  await expect(card).toContainText('Abonnement mensuel : 7,99 € par mois, 1\u202f000 crédits');
  await card.getByRole('button', { name: 'S’abonner' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('sandbox-notice')).toBeVisible();
  await dialog.getByLabel('Numéro de carte').fill('4242424242424242');
  await dialog.getByRole('button', { name: /^Payer 7,99/ }).click();
  await expect(dialog).toHaveCount(0);
  await expect(card).toContainText('Actif');
  await expect(card.getByTestId('subscription-period')).toContainText('Prochain renouvellement le');
  await expect(page.getByTestId('site-header').getByTestId('credit-button')).toHaveAttribute('aria-label', 'Solde : 1\u202f000 crédits');

  await card.getByRole('button', { name: 'Résilier' }).click();
  await expect(page.getByRole('dialog')).toContainText('Il reste actif jusqu’au');
  await page.getByRole('dialog').getByRole('button', { name: 'Résilier' }).click();
  await expect(card.getByTestId('subscription-period')).toContainText('Résilié : prend fin le');
  await card.getByRole('button', { name: 'Reprendre l’abonnement' }).click();
  await expect(card).toContainText('Abonnement repris.');
  await expect(card.getByTestId('subscription-period')).toContainText('Prochain renouvellement le');
  await page.context().close();
});
