import { accounts, expect, fillSignIn, test } from './fixtures.ts';

test('a new user signs up, lands on the dashboard, signs out and signs back in', async ({ page }) => {
  const name = `player_${Date.now().toString(36)}`;
  const password = 'Nether-portal-42';

  // Asking for the dashboard signed out starts sign-in, and comes back to it.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/oidc\/interaction\//);
  await page.getByRole('link', { name: 'Inscription', exact: true }).first().click();
  await page.getByLabel("Nom d'utilisateur").fill(name);
  await page.getByLabel('Adresse e-mail').fill(`${name}@example.com`);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Créer mon compte' }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('user-name')).toContainText(name);
  await expect(page.getByTestId('user-balance')).toContainText('0');

  // Logout goes home at once, then signs out at the provider (250 ms later) and comes back home.
  const signedOut = page.waitForResponse((r) => r.url().includes('/oidc/session/end/confirm'));
  await page.getByRole('button', { name: 'Menu du compte' }).click();
  await page.getByRole('menuitem', { name: 'Déconnexion' }).click();
  await expect(page).toHaveURL(/\/$/);
  await signedOut;
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Inscription / Connexion' }).first()).toBeVisible();
  // Signed out at the provider too: the dashboard asks for credentials again.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/oidc\/interaction\//);
  await page.getByLabel("Nom d'utilisateur ou e-mail").fill(name);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('user-name')).toContainText(name);
});

test('a wrong password is explained on the sign-in page', async ({ page }) => {
  await page.goto('/dashboard');
  await page.getByLabel("Nom d'utilisateur ou e-mail").fill('alice');
  await page.getByLabel('Mot de passe').fill('not-her-password-1');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('alert')).toHaveText("Nom d'utilisateur ou mot de passe incorrect.");
});

test('the seeded player signs in from the home page button', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Inscription / Connexion' }).first().click();
  await fillSignIn(page, accounts.alice);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('user-balance')).toContainText('500');
});
