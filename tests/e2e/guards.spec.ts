import { accounts, expect, fillSignIn, signIn, test } from './fixtures.ts';
import { baseURL } from '../../playwright.config.ts';

test('signed out, /dashboard/store shows the public catalogue', async ({ page }) => {
  await page.goto('/dashboard/store');
  await expect(page).toHaveURL(/\/store$/);
  await expect(page).not.toHaveURL(/dashboard/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalogue');
  await page.goto('/en/dashboard/store');
  await expect(page).toHaveURL(/\/en\/store$/);
});

test('signed out, a dashboard page starts sign-in and comes back to it', async ({ page }) => {
  await page.goto('/dashboard/social');
  await fillSignIn(page, accounts.alice);
  await expect(page).toHaveURL(/\/dashboard\/social$/);
  await expect(page.getByRole('heading', { name: 'Amis', exact: true })).toBeVisible();
});

test('signed in, /store and /ranked move under /dashboard, keeping the locale', async ({ page }) => {
  await signIn(page);
  await page.goto('/store');
  await expect(page).toHaveURL(/\/dashboard\/store$/);
  await page.goto('/ranked');
  await expect(page).toHaveURL(/\/dashboard\/ranked$/);
  // The competitions themselves, inside the dashboard.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Compétitions');
  await page.goto('/ranked/coupe-hiver-2026');
  await expect(page).toHaveURL(/\/dashboard\/ranked\/coupe-hiver-2026$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Coupe d’hiver 2026');
  expect((await page.goto('/dashboard/ranked/coupe-hiver-2026'))?.status()).toBe(200);
  expect((await page.goto('/dashboard/ranked/no-such-cup'))?.status()).toBe(404);
  await page.goto('/en/store');
  await expect(page).toHaveURL(/\/en\/dashboard\/store$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalogue');
});

test('signed out, /ranked is the public competitions page', async ({ page }) => {
  await page.goto('/ranked');
  await expect(page).toHaveURL(/\/ranked$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Compétitions');
});

test('a www. address moves for good to the bare host', async ({ request }) => {
  const url = new URL(baseURL);
  const res = await request.get('/about?x=1', { headers: { host: `www.${url.host}` }, maxRedirects: 0 });
  expect(res.status()).toBe(301);
  expect(res.headers()['location']).toBe(`http://${url.host}/about?x=1`);
});

test('behind a proxy that keeps www., the page itself moves to the bare host', async ({ page }) => {
  const bare = new URL(baseURL);
  const www = `http://www.localhost:${bare.port}`;
  // Serve the www. address from the bare one without the server's own redirect, as a proxy might.
  await page.route(`${www}/**`, async (route) => route.fulfill({ response: await route.fetch({ url: route.request().url().replace('//www.', '//') }) }));
  await page.goto(`${www}/about?x=1#team`);
  await expect(page).toHaveURL(`${baseURL}/about?x=1#team`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Qui sommes-nous ?');
});
