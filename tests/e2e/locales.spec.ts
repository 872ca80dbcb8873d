import { accessToken, accounts, expect, signIn, test } from './fixtures.ts';

test('each locale form of a page: unprefixed (browser language), /fr and /en', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Qui sommes-nous ?');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await page.goto('/fr/about');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Qui sommes-nous ?');
  await page.goto('/en/about');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Who we are');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('link', { name: 'Competitions' }).first()).toHaveAttribute('href', '/en/ranked');
});

test.describe('an English browser', () => {
  test.use({ locale: 'en-US' });

  test('gets English unprefixed; the switcher keeps the page and the cookie remembers the choice', async ({ page, context }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Who we are');
    await page.getByRole('button', { name: 'Passer en français' }).click();
    await expect(page).toHaveURL(/\/fr\/about$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Qui sommes-nous ?');

    const cookie = (await context.cookies()).find((c) => c.name === 'locale')!;
    expect(cookie.value).toBe('fr');
    expect(cookie.sameSite).toBe('Lax');
    const days = (cookie.expires - Date.now() / 1000) / 86400;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);

    // The cookie now wins over the browser's languages.
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Qui sommes-nous ?');
  });
});

test('switching language re-renders a notification and a ledger line, and the API remembers the language', async ({ page, request }) => {
  await signIn(page, accounts.alice);
  const auth = { authorization: `Bearer ${await accessToken(page)}` };
  const sent = await request.post('/v1/user/notification', { headers: auth });
  expect(sent.status()).toBe(201);
  // Sent in alice's saved language, French: the web app never said otherwise.
  expect(((await sent.json()) as { data: { title: string } }).data.title).toBe('Notification de test');

  await page.goto('/dashboard/account');
  const grid = page.getByTestId('transactions-grid');
  // The seed's welcome credits, a ledger line stored as a message.
  await expect(grid.getByText('Crédits de bienvenue')).toBeVisible();
  const bell = page.getByTestId('notification-bell');
  await bell.click();
  const list = page.getByRole('dialog', { name: 'Notifications' });
  const notice = list.getByTestId('notification').filter({ hasText: 'Notification de test' }).first();
  await expect(notice).toContainText('Les notifications arrivent en direct.');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Switch to English' }).click();
  await expect(page).toHaveURL(/\/en\/dashboard\/account$/);
  await expect(grid.getByText('Welcome credits')).toBeVisible();
  await expect(grid.getByText('Crédits de bienvenue')).toHaveCount(0);
  await bell.click();
  await expect(list.getByTestId('notification').filter({ hasText: 'Test notification' }).first()).toContainText('Notifications arrive live.');
  await expect(list.getByText('Notification de test')).toHaveCount(0);

  // The app's next calls carry the locale cookie: the API saves the language, and a client without the cookie gets English too.
  await page.reload();
  await expect(grid.getByText('Welcome credits')).toBeVisible();
  await expect.poll(async () => ((await (await request.get('/v1/user', { headers: auth })).json()) as { locale: string }).locale).toBe('en');
  const again = (await (await request.post('/v1/user/notification', { headers: auth })).json()) as { data: { title: string } };
  expect(again.data.title).toBe('Test notification');

  // Back to French, as the other specs expect alice.
  await page.getByRole('button', { name: 'Passer en français' }).click();
  await expect(grid.getByText('Crédits de bienvenue')).toBeVisible();
  await page.reload();
  await expect.poll(async () => ((await (await request.get('/v1/user', { headers: auth })).json()) as { locale: string }).locale).toBe('fr');
});
