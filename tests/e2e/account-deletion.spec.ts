import { accessToken, accounts, desktopChecks, expect, fillSignIn, inEachLook, seriousViolations, shoot, signedIn, signUp, staffApi, test, type Look } from './fixtures.ts';
import type { Page } from '@playwright/test';

const SHOTS = 'test-results/account-deletion';
const run = Date.now().toString(36);
const PASSWORD = 'Nether-portal-42';

/**
 * The delete dialog, opened from the account page's danger card, in each look: no serious
 * accessibility violation in either theme, and its pictures (`npm run looks`); closed after each.
 */
async function dialogInEachLook(page: Page, language: 'fr' | 'en') {
  const words = language === 'fr' ? { open: 'Supprimer mon compte', keep: 'Garder mon compte' } : { open: 'Delete my account', keep: 'Keep my account' };
  await inEachLook(
    page,
    () => page.goto(language === 'fr' ? '/dashboard/account' : '/en/dashboard/account'),
    async ({ theme, label }: Look) => {
      await page.getByRole('button', { name: words.open }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByTestId('delete-account-credits')).toBeVisible();
      expect(await seriousViolations(page, { theme, include: '[role="dialog"]' })).toEqual([]);
      await shoot(page, { path: `${SHOTS}/delete-dialog-${language}-${label}-${theme}.png` });
      await dialog.getByRole('button', { name: words.keep }).click();
      await expect(dialog).toBeHidden();
    },
    desktopChecks,
  );
}

test('a player deletes their account: they cannot sign in again, staff still find the invoice under the replaced name, and signing up again starts from nothing', async ({ browser }) => {
  const name = `leaver_${run}`;
  const page = await signUp(browser, name, '/dashboard/account');
  const token = await accessToken(page);
  const auth = { authorization: `Bearer ${token}` };
  const me = (await (await page.request.get('/v1/user', { headers: auth })).json()) as { id: string };

  // A pack paid with a sandbox card (an invoice), then 30 credits more from staff.
  const packs = (await (await page.request.get('/v1/pricing')).json()).data as Array<{ id: string; credits: number; bonusCredits: number }>;
  const checkout = (await (await page.request.post('/v1/payment/stripe', { headers: auth, data: { pricingId: packs[0]!.id } })).json()) as { paymentId: string };
  expect((await page.request.post(`/v1/payment/sandbox/${checkout.paymentId}/confirm`, { headers: auth, data: { cardNumber: '4242424242424242' } })).status()).toBe(200);
  const staff = await staffApi(page.request);
  expect((await staff.post('/v1/user/credit', { userId: me.id, amount: 30, reason: 'Browser test credits' })).status()).toBe(200);
  const balance = packs[0]!.credits + packs[0]!.bonusCredits + 30;
  const invoices = (await (await page.request.get('/v1/purchase/invoices', { headers: auth })).json()).data as Array<{ number: string }>;
  expect(invoices).toHaveLength(1);

  await dialogInEachLook(page, 'en');
  await dialogInEachLook(page, 'fr');

  // The dialog says how many credits go, what goes and what stays; a wrong password shows under its field.
  await page.goto('/dashboard/account');
  await page.getByRole('button', { name: 'Supprimer mon compte' }).click();
  const dialog = page.getByRole('dialog', { name: 'Supprimer mon compte pour de bon ?' });
  await expect(dialog.getByTestId('delete-account-credits')).toHaveText(`Vos ${balance} crédits restants seront perdus : ils ne sont pas remboursés.`);
  await expect(dialog).toContainText('conservés dix ans');
  await dialog.getByLabel('Mot de passe').fill('not-my-password-1');
  await dialog.getByRole('button', { name: 'Supprimer mon compte' }).click();
  await expect(dialog.getByText('n’est pas votre mot de passe actuel')).toBeVisible();
  expect((await page.request.get('/v1/user', { headers: auth })).status()).toBe(200);

  // The right one: signed out to the home page, which says so and how many credits went.
  await dialog.getByLabel('Mot de passe').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Supprimer mon compte' }).click();
  // Once back from the provider's sign-out: signed out, on the home page, which says so.
  await expect(page.getByRole('button', { name: 'Inscription / Connexion' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('account-deleted-notice')).toContainText(`Votre compte est supprimé. ${balance} crédits ont été perdus avec lui`);
  // The token the page held is refused at once.
  const refused = await page.request.get('/v1/user', { headers: auth });
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { code: string }).code).toBe('auth.accountDeleted');

  // Signing in again is refused.
  await page.goto('/dashboard');
  await fillSignIn(page, { login: name, password: PASSWORD });
  await expect(page.getByText("Nom d'utilisateur ou mot de passe incorrect.")).toBeVisible();
  await page.context().close();

  // Staff still find the invoice, under the replaced name.
  const replaced = `Compte supprimé ${me.id.slice(0, 8)}`;
  const back = await signedIn(browser, accounts.staff, '/dashboard/staff/invoices');
  await back.goto(`/dashboard/staff/invoices?filters[0][field]=userId&filters[0][operator]=eq&filters[0][value]=${me.id}`);
  const row = back.getByRole('row').filter({ hasText: invoices[0]!.number });
  await expect(row).toContainText(replaced);
  await back.context().close();

  // Signing up again with the same name and email starts from nothing.
  const again = await signUp(browser, name, '/dashboard/account');
  const fresh = (await (await again.request.get('/v1/user', { headers: { authorization: `Bearer ${await accessToken(again)}` } })).json()) as { id: string; balance: number };
  expect(fresh.id).not.toBe(me.id);
  expect(fresh.balance).toBe(0);
  await again.context().close();
});
