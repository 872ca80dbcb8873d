import type { Page } from '@playwright/test';
import { accessToken, accounts, chooseIn, expect, fillSignIn, test } from './fixtures.ts';

/**
 * Signs in on the provider's page and comes back through the app's callback, as a player does: these
 * tests follow the session the app itself made. On one stored by fixtures' `signIn` instead, the
 * stored-session test once found the session gone mid-way; why is not pinned down yet.
 */
async function signIn(page: Page, account: { login: string; password: string }) {
  await page.goto('/dashboard');
  await fillSignIn(page, account);
  await expect(page).toHaveURL(/\/dashboard$/);
}

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
  await chooseIn(page.getByRole('button', { name: 'Menu du compte' }), page.getByRole('menuitem', { name: 'Déconnexion' }));
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

test('the sign-in page shows the site’s icon, which the server serves', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/oidc\/interaction\//);
  const icon = page.locator('link[rel="icon"]');
  await expect(icon).toHaveAttribute('href', /./);
  const answer = await page.request.get(new URL((await icon.getAttribute('href'))!, page.url()).toString());
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toContain('image/svg+xml');
});

test('the seeded player signs in from the home page button', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Inscription / Connexion' }).first().click();
  await fillSignIn(page, accounts.alice);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('user-balance')).toContainText('500');
});

test('the session refreshes every 60 s and when the window shows again; a failed refresh signs in again', async ({ page }) => {
  await page.clock.install();
  await signIn(page, accounts.alice);
  const refreshes: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/oidc/token') && (r.postData() ?? '').includes('grant_type=refresh_token')) refreshes.push(r.url());
  });
  const before = await accessToken(page);
  await page.clock.runFor(59_000);
  expect(refreshes).toHaveLength(0);
  await page.clock.runFor(2_000);
  await expect.poll(() => refreshes.length).toBe(1);

  // The session holds the new token; back to the tab, it refreshes again at once.
  await expect.poll(() => accessToken(page)).not.toBe(before);
  const first = await accessToken(page);
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect.poll(() => refreshes.length).toBe(2);
  await expect.poll(() => accessToken(page)).not.toBe(first);

  // The provider refuses the refresh token: the player is sent to sign in again (the provider,
  // which still knows them, sends them straight back signed in).
  const signIns: string[] = [];
  page.on('request', (r) => {
    if (r.isNavigationRequest() && new URL(r.url()).pathname === '/oidc/auth') signIns.push(r.url());
  });
  await page.route('**/oidc/token', (route) =>
    (route.request().postData() ?? '').includes('grant_type=refresh_token')
      ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'invalid_grant', error_description: 'grant request is invalid' }) })
      : route.continue(),
  );
  await page.clock.runFor(60_000);
  await expect.poll(() => signIns.length).toBe(1);
  expect(new URL(signIns[0]!).searchParams.get('client_id')).toBe('web');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('credit-button')).toBeVisible();
});

test('logout goes home first and signs out at the provider 250 ms later', async ({ page }) => {
  await page.clock.install();
  await signIn(page, accounts.alice);
  const ends: string[] = [];
  page.on('request', (r) => {
    if (r.isNavigationRequest() && new URL(r.url()).pathname.startsWith('/oidc/session/end')) ends.push(r.url());
  });
  // The page has drawn the signed-in header (its reads settle on timers) before its time stands still.
  await expect(page.getByRole('button', { name: 'Menu du compte' })).toBeVisible();
  // The page's time stands still from here, and moves only when the test says.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  // The app says when its sign-out starts, on the page's clock: not at 240 ms, at 250.
  const clickedAt = await page.evaluate(() => {
    addEventListener('blockhost:logout-redirect', () => sessionStorage.setItem('logoutAt', String(Date.now())));
    return Date.now();
  });
  const startedAt = () => page.evaluate(() => sessionStorage.getItem('logoutAt'));
  await chooseIn(page.getByRole('button', { name: 'Menu du compte' }), page.getByRole('menuitem', { name: 'Déconnexion' }));
  await expect(page).toHaveURL(/\/$/);
  await page.clock.runFor(240);
  expect(await startedAt()).toBeNull();
  await page.clock.runFor(20);
  await expect.poll(() => ends.length).toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: 'Inscription / Connexion' }).first()).toBeVisible();
  expect(Number(await startedAt()) - clickedAt).toBe(250);
});

test('a tab opened on a stored session shows the player at once and loads the sign-in client when a refresh is due', async ({ page }) => {
  await signIn(page, accounts.alice);
  const refreshes = (tab: Page) => {
    const seen: string[] = [];
    tab.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/oidc/token') && (r.postData() ?? '').includes('grant_type=refresh_token')) seen.push(r.url());
    });
    return seen;
  };
  const clientScripts = (tab: Page) => {
    const seen: string[] = [];
    tab.on('request', (r) => {
      if (r.resourceType() === 'script' && /oidc/i.test(new URL(r.url()).pathname)) seen.push(r.url());
    });
    return seen;
  };

  // Signed in from the stored session: name, balance from the API, no sign-in client yet.
  await page.clock.install();
  const tab = await page.context().newPage();
  const tabRefreshes = refreshes(tab);
  const tabClient = clientScripts(tab);
  await tab.goto('/dashboard');
  await expect(tab.getByTestId('user-name')).toContainText('alice');
  await expect(tab.getByTestId('user-balance')).not.toBeEmpty();
  // The page's own time runs on meanwhile: a few seconds have gone since it opened.
  await tab.clock.runFor(50_000);
  expect(tabClient).toEqual([]);
  expect(tabRefreshes).toEqual([]);
  // The refresh due at 60 s loads the client, which refreshes at once, then every 60 s.
  const before = await accessToken(tab);
  await tab.clock.runFor(10_000);
  await expect.poll(() => tabRefreshes.length).toBe(1);
  expect(tabClient).toHaveLength(1);
  await expect.poll(() => accessToken(tab)).not.toBe(before);
  await tab.clock.runFor(60_000);
  await expect.poll(() => tabRefreshes.length).toBe(2);
  await expect(tab.getByTestId('user-name')).toContainText('alice');

  // Another tab, shown again before 60 s: it refreshes then.
  const other = await page.context().newPage();
  const otherRefreshes = refreshes(other);
  await other.goto('/credits');
  await expect(other.getByTestId('credit-button')).toBeVisible();
  expect(otherRefreshes).toEqual([]);
  await other.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect.poll(() => otherRefreshes.length).toBe(1);

  // Logout from a tab that never loaded the client: home at once, then the provider's sign-out.
  const last = await page.context().newPage();
  const ends: string[] = [];
  last.on('request', (r) => {
    if (r.isNavigationRequest() && new URL(r.url()).pathname.startsWith('/oidc/session/end')) ends.push(r.url());
  });
  await last.goto('/dashboard');
  await chooseIn(last.getByRole('button', { name: 'Menu du compte' }), last.getByRole('menuitem', { name: 'Déconnexion' }));
  await expect(last).toHaveURL(/\/$/);
  await last.clock.runFor(300);
  await expect.poll(() => ends.length).toBeGreaterThan(0);
  await expect(last.getByRole('button', { name: 'Inscription / Connexion' }).first()).toBeVisible();
});
