import { generate } from 'otplib';
import { port, smtpPort } from '../../playwright.config.ts';
import { startSmtp } from '../fixtures/smtp.ts';
import type { Page } from '@playwright/test';
import { expect, fillSignIn, shotsInEachLook, signUp, test } from './fixtures.ts';

/** Screenshots for people to look at (`npm run looks`): test-results/screenshots/. */
const dir = 'test-results/screenshots';

/** The provider's own pages follow the system's theme (no toggle): each scheme at both widths. */
async function providerPageShots(page: Page, name: string) {
  if (process.env.LOOKS !== '1') return;
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const [label, width] of [
      ['desktop', 1280],
      ['phone', 375],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `${dir}/${name}-${label}-${colorScheme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

// The server sends its mails to this worker's SMTP port (playwright.config.ts): read them here.
let smtp: Awaited<ReturnType<typeof startSmtp>>;
test.beforeAll(async () => {
  smtp = await startSmtp(smtpPort(port));
});
test.afterAll(() => smtp.close());

const PASSWORD = 'Nether-portal-42';

test('a forgotten password is reset through the link of the email received', async ({ browser }) => {
  const name = `reset_${Date.now() % 1e6}`;
  await (await signUp(browser, name)).context().close();
  const page = await (await browser.newContext()).newPage();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/oidc\/interaction\//);
  await providerPageShots(page, 'sign-in');
  await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
  await providerPageShots(page, 'forgot-password');
  await page.getByLabel('Adresse e-mail').fill(`${name}@example.com`);
  await page.getByRole('button', { name: 'Envoyer le lien' }).click();
  await expect(page.getByRole('heading', { name: 'Vérifiez vos e-mails' })).toBeVisible();

  const mail = await smtp.next(`${name}@example.com`);
  expect(mail.subject).toBe('Choisir un nouveau mot de passe BlockHost');
  const link = mail.links.find((l) => l.includes('/oidc/ui/reset'))!;
  await page.goto(link);
  await providerPageShots(page, 'reset-password');
  await page.getByLabel('Nouveau mot de passe').fill('Fresh-start-2026');
  await page.getByRole('button', { name: 'Enregistrer le mot de passe' }).click();
  await expect(page.getByRole('heading', { name: 'Mot de passe changé' })).toBeVisible();

  // The link works once.
  await page.goto(link);
  await expect(page.getByText('Ce lien a expiré ou a déjà servi')).toBeVisible();

  await page.goto('/dashboard');
  await fillSignIn(page, { login: name, password: PASSWORD });
  await expect(page.getByRole('alert')).toContainText('incorrect');
  await fillSignIn(page, { login: name, password: 'Fresh-start-2026' });
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('two-factor sign-in: turned on from the account page, asked at the next sign-in, a recovery code used once', async ({ browser }) => {
  const name = `totp_${Date.now() % 1e6}`;
  const page = await signUp(browser, name, '/dashboard/account');
  await shotsInEachLook(page, dir, 'account', () => expect(page.getByRole('link', { name: 'Gérer la sécurité' })).toBeVisible());
  await page.getByRole('link', { name: 'Gérer la sécurité' }).click();
  await expect(page).toHaveURL(/\/dashboard\/account\/security$/);
  await shotsInEachLook(page, dir, 'account-security', () => expect(page.getByText('Désactivée : seul le mot de passe est demandé à la connexion.')).toBeVisible());

  await page.getByRole('button', { name: 'Activer' }).click();
  await shotsInEachLook(page, dir, 'two-factor-setup', () => expect(page.getByTestId('two-factor-qr')).toBeVisible());
  const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
  // A wrong code first: said under the field, nothing turned on.
  await page.getByLabel('Code à 6 chiffres').fill('000000');
  await page.getByRole('button', { name: 'Confirmer et activer' }).click();
  await expect(page.getByText('n’est pas le bon code')).toBeVisible();
  await page.getByLabel('Code à 6 chiffres').fill(await generate({ secret }));
  await page.getByRole('button', { name: 'Confirmer et activer' }).click();
  // The codes come with the answer: wait for them, allTextContents does not.
  await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  const codes = await page.getByTestId('recovery-codes').locator('li').allTextContents();
  await shotsInEachLook(page, dir, 'two-factor-recovery-codes', () => expect(page.getByTestId('recovery-codes')).toBeVisible());
  await page.getByRole('button', { name: 'J’ai noté mes codes' }).click();
  await expect(page.getByText('Activée', { exact: true })).toBeVisible();
  await expect(page.getByText('10 codes de secours restants.')).toBeVisible();
  await shotsInEachLook(page, dir, 'account-security-on', () => expect(page.getByText('10 codes de secours restants.')).toBeVisible());

  // The next sign-in asks for a code after the password: a recovery code is taken once.
  for (const attempt of ['first', 'again'] as const) {
    const other = await (await browser.newContext()).newPage();
    await other.goto('/dashboard');
    await fillSignIn(other, { login: name, password: PASSWORD });
    await expect(other.getByRole('heading', { name: 'Validation en deux étapes' })).toBeVisible();
    if (attempt === 'first') await providerPageShots(other, 'two-factor-sign-in');
    await other.getByLabel('Code').fill(codes[0]!);
    await other.getByRole('button', { name: 'Valider' }).click();
    if (attempt === 'first') await expect(other).toHaveURL(/\/dashboard$/);
    else await expect(other.getByRole('alert')).toContainText('Code incorrect');
    await other.context().close();
  }
  await page.reload();
  await expect(page.getByText('9 codes de secours restants.')).toBeVisible();
  await page.goto('/en/dashboard/account/security');
  await shotsInEachLook(page, dir, 'account-security-en', () => expect(page.getByText('9 recovery codes left.')).toBeVisible());
});
