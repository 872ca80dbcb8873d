import type { Page } from '@playwright/test';
import { accessToken, accounts, expect, signIn, test, transitionsEnded } from './fixtures.ts';

test('the theme toggle is saved and applied again after a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/about');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await page.evaluate(() => localStorage.getItem('preferredTheme'))).toBe('dark');
  await page.reload();
  // Applied before the app runs: boot.js sets it from local storage.
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(15, 20, 16)');
});

test('the header is transparent on the home page until it is scrolled 50 px', async ({ page }) => {
  await page.goto('/');
  const header = page.getByTestId('site-header');
  await expect(header).toHaveAttribute('data-transparent', 'true');
  await expect(header).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
  await page.evaluate(() => window.scrollTo(0, 49));
  await expect(header).toHaveAttribute('data-transparent', 'true');
  await page.evaluate(() => window.scrollTo(0, 50));
  await expect(header).toHaveAttribute('data-transparent', 'false');
  await expect(header).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(header).toHaveAttribute('data-transparent', 'true');
  // Elsewhere it is never transparent.
  await page.goto('/about');
  await expect(header).toHaveAttribute('data-transparent', 'false');
});

test('the header navigation, with Les Cités disabled, and the footer links', async ({ page, request }) => {
  await page.goto('/about');
  const nav = page.getByRole('navigation', { name: 'Navigation principale' });
  await expect(nav.getByRole('link', { name: 'Accueil' })).toHaveAttribute('href', '/');
  await expect(nav.getByRole('link', { name: 'Catalogue' })).toHaveAttribute('href', '/store');
  await expect(nav.getByRole('link', { name: 'Compétitions' })).toHaveAttribute('href', '/ranked');
  await expect(nav.getByRole('button', { name: 'Les Cités' })).toBeDisabled();
  const social = (await (await request.get('/app-config.json')).json()).social as Record<string, string>;
  for (const key of ['discord', 'twitter', 'youtube', 'instagram']) {
    const link = page.getByTestId(`social-${key}`);
    await expect(link).toHaveAttribute('href', social[key]!);
    await expect(link).toHaveAttribute('target', '_blank');
  }
  await expect(page.getByTestId('disclaimer')).toContainText("n'est pas un service officiel de Minecraft");
  const footer = page.getByRole('navigation', { name: 'Liens du site' });
  for (const href of ['/', '/contact', '/about', '/legal', '/cgu', '/cgv']) await expect(footer.locator(`a[href="${href}"]`)).toHaveCount(1);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the drawer holds the navigation and sign-in, and closes on navigation', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('button', { name: 'Inscription / Connexion' })).toBeHidden();
    await page.getByTestId('drawer-button').click();
    const drawer = page.getByTestId('nav-drawer');
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('link', { name: 'Catalogue' })).toBeVisible();
    await expect(drawer.getByText('AUTHENTIFICATION')).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'Inscription / Connexion' })).toBeVisible();
    // The drawer has slid in before a link of it is clicked (chooseIn in fixtures.ts says why).
    await transitionsEnded(page);
    await drawer.getByRole('link', { name: 'Compétitions' }).click();
    await expect(page).toHaveURL(/\/ranked$/);
    await expect(drawer).toBeHidden();
  });

  test('signed in, the drawer shows the user name and the account menu', async ({ page }) => {
    await signIn(page, accounts.alice);
    await page.getByTestId('drawer-button').click();
    const drawer = page.getByTestId('nav-drawer');
    await expect(drawer.getByTestId('drawer-user')).toHaveText('ALICE');
    await expect(drawer.getByRole('link', { name: 'Mon Compte' })).toBeVisible();
    await expect(drawer.getByRole('link', { name: 'Amis' })).toHaveAttribute('href', '/dashboard/social');
    await expect(drawer.getByRole('link', { name: 'Mon profil' })).toHaveAttribute('href', '/dashboard/profil');
    // The drawer has slid in before a link of it is clicked (chooseIn in fixtures.ts says why).
    await transitionsEnded(page);
    await drawer.getByRole('link', { name: 'Mon Compte' }).click();
    await expect(page).toHaveURL(/\/dashboard\/account$/);
    await expect(drawer).toBeHidden();
  });
});

test('signed in, the account menu and the dashboard lead to the friends and profile pages', async ({ page }) => {
  await signIn(page, accounts.alice);
  const shortcuts = page.getByRole('navigation', { name: 'Raccourcis' });
  await expect(shortcuts.getByRole('link', { name: 'Amis' })).toHaveAttribute('href', '/dashboard/social');
  await shortcuts.getByRole('link', { name: 'Mon profil' }).click();
  await expect(page).toHaveURL(/\/dashboard\/profil$/);
  await page.getByRole('button', { name: 'Menu du compte' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem')).toHaveText(['Dashboard', 'Mon Compte', 'Amis', 'Mon profil', 'Déconnexion']);
  // The menu has grown before its item is clicked (chooseIn says why).
  await transitionsEnded(page);
  await menu.getByRole('menuitem', { name: 'Amis' }).click();
  await expect(page).toHaveURL(/\/dashboard\/social$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Amis' })).toBeVisible();
});

test('signed in: the credit button shows the balance and leads to /credits', async ({ page }) => {
  await signIn(page, accounts.alice);
  // Other suites spend alice's credits: the button must show what the API says now.
  const me = await (await page.request.get('/v1/user', { headers: { authorization: `Bearer ${await accessToken(page)}` } })).json();
  const credits = page.getByTestId('credit-button');
  // Shown as a French reader writes numbers: 1500 is "1 500".
  await expect(credits).toHaveText(new Intl.NumberFormat('fr-FR').format(me.balance));
  await credits.click();
  await expect(page).toHaveURL(/\/credits$/);
});

test('signed in, /jwt shows the access token claims', async ({ page }) => {
  await signIn(page, accounts.alice);
  await page.goto('/jwt');
  await expect(page.getByTestId('jwt-claims')).toContainText('"preferred_username": "alice"');
});

test('a new version announced by /builds/latest.json offers a reload', async ({ page }) => {
  await page.clock.install();
  await page.route('**/builds/latest.json', (route) => route.fulfill({ json: { version: 'a-newer-version' } }));
  await page.goto('/about');
  await expect(page.getByText('Une nouvelle version de BlockHost est disponible.')).toBeHidden();
  // The watch starts once the app has rendered, which a loaded page does not promise: five minutes
  // pass again until the notice shows, so a slow first render cannot leave the clock ahead of it.
  await expect(async () => {
    await page.clock.fastForward('05:01');
    await expect(page.getByText('Une nouvelle version de BlockHost est disponible.')).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await expect(page.getByRole('button', { name: 'Recharger' })).toBeVisible();
});

test('with less motion asked for, loading placeholders stand still; otherwise they pulse', async ({ browser }) => {
  const store = async (reducedMotion: 'reduce' | 'no-preference') => {
    const page = await (await browser.newContext({ reducedMotion })).newPage();
    // The catalogue's answer held back: its cards show as placeholders meanwhile.
    await page.route('**/v1/definition/game/list*', () => {});
    await page.goto('/store');
    await expect(page.locator('.MuiSkeleton-root').first()).toBeVisible();
    return page;
  };
  const running = (page: Page) => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length);
  // Endless pulses.
  expect(await running(await store('no-preference'))).toBeGreaterThan(0);
  // Each placeholder's pulse has ended at once.
  const still = await store('reduce');
  await expect.poll(() => running(still)).toBe(0);
});
