import type { Page } from '@playwright/test';
import { accessToken, accounts, expect, inEachLook, seriousViolations, shoot, signIn, signUp, staffApi, test } from './fixtures.ts';

test('a notification sent while the page is open rings the bell, and opening it marks it read', async ({ page, request }) => {
  await signIn(page, accounts.alice);
  const token = await accessToken(page);
  const auth = { authorization: `Bearer ${token}` };
  // Start from nothing unread.
  const before = (await (await request.get('/v1/user/notifications/unread?page=0&size=100', { headers: auth })).json()) as { data: Array<{ id: string }> };
  for (const n of before.data) await request.put(`/v1/user/notification/${n.id}`, { headers: auth });
  await page.goto('/about');
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAccessibleName('Notifications, 0 non lue');

  const sent = await request.post('/v1/user/notification', { headers: auth });
  expect(sent.status()).toBe(201);
  const { id, data } = (await sent.json()) as { id: string; data: { title: string } };
  await expect(bell).toHaveAccessibleName('Notifications, 1 non lue');

  const markRead = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/v1/user/notification/${id}`));
  await bell.click();
  const list = page.getByRole('dialog', { name: 'Notifications' });
  await expect(list.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await expect(list.getByTestId('notification').first()).toContainText(data.title);
  await markRead;
  // The open-link button follows the notification's link and closes the list.
  await list.getByRole('link', { name: 'Ouvrir' }).first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(list).toBeHidden();
  await expect(bell).toHaveAccessibleName('Notifications, 0 non lue');
  await expect.poll(async () => ((await (await request.get('/v1/user/notifications/unread', { headers: auth })).json()) as { totalElements: number }).totalElements).toBe(0);

  // The unread list feeds the bell at start too.
  await request.post('/v1/user/notification', { headers: auth });
  await page.reload();
  await expect(bell).toHaveAccessibleName('Notifications, 1 non lue');
});

const run = Date.now().toString(36).slice(-6);

/** A signed-up player's API, with the bearer of the page's session. */
async function playerApi(page: Page) {
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  return {
    get: (path: string) => page.request.get(path, { headers }),
    post: (path: string, data?: object) => page.request.post(path, { headers, ...(data ? { data } : {}) }),
    put: (path: string) => page.request.put(path, { headers }),
  };
}

test('the notifications page keeps read ones, marks one read, shows new ones live, in both languages and on a phone; the bell links to it', async ({ browser }) => {
  const page = await signUp(browser, `notes_${run}`);
  const api = await playerApi(page);
  const bell = page.getByTestId('notification-bell');

  // A new player has none yet.
  await page.goto('/dashboard/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(page.getByTestId('empty')).toContainText("Demandes d'ami");

  const first = (await (await api.post('/v1/user/notification')).json()) as { id: string };
  await api.post('/v1/user/notification');
  expect((await api.put(`/v1/user/notification/${first.id}`)).status()).toBe(204);
  await page.reload();
  const rows = page.getByTestId('notification-row');
  // Newest first; the one read elsewhere is still listed, as read.
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-read', 'false');
  await expect(rows.nth(0)).toContainText('Non lue');
  await expect(rows.nth(1)).toHaveAttribute('data-read', 'true');
  await expect(bell).toHaveAccessibleName('Notifications, 1 non lue');

  // Marked read here: it stays on the page, and the bell hears of it.
  await rows
    .nth(0)
    .getByRole('button', { name: /comme lue/ })
    .click();
  await expect(rows.nth(0)).toHaveAttribute('data-read', 'true');
  await expect(rows).toHaveCount(2);
  await expect(bell).toHaveAccessibleName('Notifications, 0 non lue');

  // One sent while the page is open shows at the top, unread, without a reload.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await api.post('/v1/user/notification');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toHaveAttribute('data-read', 'false');
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

  // In English; then both themes at 1280 and 375 px: nothing wider than the screen, no serious accessibility fault.
  await page.goto('/en/dashboard/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(rows.nth(0).getByRole('button', { name: /as read/ })).toBeVisible();
  await expect(rows.nth(0)).toContainText('Unread');
  await inEachLook(
    page,
    async () => {
      await page.goto('/dashboard/notifications');
      await expect(rows).toHaveCount(3);
    },
    async ({ theme, width }) => {
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await seriousViolations(page, { theme, include: 'main' })).toEqual([]);
      await shoot(page, { path: `test-results/notifications/page-${width}-${theme}.png`, fullPage: true });
    },
  );

  // The bell's list ends with a link to the page, which keeps what the bell drops once read.
  await page.goto('/dashboard');
  await bell.click();
  await page.getByRole('dialog', { name: 'Notifications' }).getByRole('link', { name: 'Tout voir' }).click();
  await expect(page).toHaveURL(/\/dashboard\/notifications$/);
  await expect(rows).toHaveCount(3);
  await page.context().close();
});

test('a game started from elsewhere shows its new status on its open page, without a reload', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signUp(browser, `live_${run}`);
  const api = await playerApi(page);
  // Credits by card (the sandbox), then the cheapest server.
  const packs = (await (await api.get('/v1/pricing')).json()) as { data: Array<{ id: string }> };
  const checkout = (await (await api.post('/v1/payment/stripe', { pricingId: packs.data[0]!.id })).json()) as { paymentId: string };
  expect((await api.post(`/v1/payment/sandbox/${checkout.paymentId}/confirm`, { cardNumber: '4242424242424242' })).status()).toBe(200);
  const definitions = (await (await api.get('/v1/definition/game/list?size=100')).json()) as { data: Array<{ id: string; packages: Array<{ id: string; priceCredits: number }> }> };
  const definition = definitions.data.find((d) => d.packages.length > 0)!;
  const pack = [...definition.packages].sort((a, b) => a.priceCredits - b.priceCredits)[0]!;
  const created = await api.post('/v1/game/create', { definitionId: definition.id, packageId: pack.id, name: `Live ${run}` });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  await page.goto(`/dashboard/game/${id}`);
  const status = page.getByTestId('game-status').first();
  await expect(status).toHaveAttribute('data-status', 'CREATED');
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  try {
    // Another tab, a phone, a script: the page did not ask, the stream tells it.
    expect((await api.post(`/v1/game/${id}/start`)).status()).toBe(200);
    await expect(status).toHaveAttribute('data-status', /STARTING|RUNNING/);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  } finally {
    await api.post(`/v1/game/${id}/stop`);
  }
  await page.context().close();
});

test('a notice’s times read in the reader’s own zone, without a UTC to convert', async ({ browser, request }) => {
  // A reader in Tokyo (UTC+9 all year): a time given in UTC would read nine hours off.
  const page = await (await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'fr-FR' })).newPage();
  await signIn(page, accounts.alice);
  const api = await playerApi(page);
  const packs = (await (await api.get('/v1/pricing')).json()) as { data: Array<{ id: string }> };
  const checkout = (await (await api.post('/v1/payment/stripe', { pricingId: packs.data[0]!.id })).json()) as { paymentId: string };
  expect((await api.post(`/v1/payment/sandbox/${checkout.paymentId}/confirm`, { cardNumber: '4242424242424242' })).status()).toBe(200);
  const definitions = (await (await api.get('/v1/definition/game/list?size=100')).json()) as { data: Array<{ id: string; packages: Array<{ id: string; priceCredits: number }> }> };
  const definition = definitions.data.find((d) => d.packages.length > 0)!;
  const pack = [...definition.packages].sort((a, b) => a.priceCredits - b.priceCredits)[0]!;
  const created = await api.post('/v1/game/create', { definitionId: definition.id, packageId: pack.id, name: `Tokyo ${run}`, autoRenew: false });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  // Staff give it three days: the owner is told until when.
  const extended = await (await staffApi(request)).post(`/v1/staff/games/${id}/extend`, { days: 3, reason: `Panne ${run}` });
  expect(extended.status()).toBe(200);
  const until = new Date(((await extended.json()) as { periodEnd: string }).periodEnd);
  const inTokyo = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Asia/Tokyo' }).format(until);

  await page.goto('/dashboard/notifications');
  const notice = page.getByTestId('notification-row').filter({ hasText: `Panne ${run}` });
  await expect(notice).toContainText(`jusqu'au ${inTokyo}`);
  await expect(notice).not.toContainText('UTC');
});
