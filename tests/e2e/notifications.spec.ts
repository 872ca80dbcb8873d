import { accessToken, accounts, expect, signIn, test } from './fixtures.ts';

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
  await expect
    .poll(async () => ((await (await request.get('/v1/user/notifications/unread', { headers: auth })).json()) as { totalElements: number }).totalElements)
    .toBe(0);

  // The unread list feeds the bell at start too.
  await request.post('/v1/user/notification', { headers: auth });
  await page.reload();
  await expect(bell).toHaveAccessibleName('Notifications, 1 non lue');
});
