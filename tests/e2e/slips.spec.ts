import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { join, kicked, quit } from '../fixtures/minecraft.ts';
import { accessToken, accounts, buyServerInStore, expect, openTab, serverPort, signedIn, signUp, staffApi, test } from './fixtures.ts';

/** Small things a person saw wrong (issue 32), each checked as they would see it. */

const run = Date.now().toString(36).slice(-6);

/** The API as the page's signed-in player. */
async function api(page: Page) {
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  return {
    get: (path: string) => page.request.get(path, { headers }),
    post: (path: string, data: object) => page.request.post(path, { headers, data }),
    put: (path: string, data: object) => page.request.put(path, { headers, data }),
  };
}

test('a server page that is not yours says so after one request, not after four; the header says Les Cités are to come', async ({ browser }) => {
  const id = randomUUID();
  const page = await signedIn(browser, accounts.bob);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === `/v1/game/${id}`) asked.push(r.url());
  });
  await page.goto(`/dashboard/game/${id}`);
  await expect(page.getByText('Ce serveur n’existe pas, ou il n’est pas à vous.')).toBeVisible();
  expect(asked).toHaveLength(1);

  await page.goto('/');
  await expect(page.getByRole('navigation', { name: /./ }).getByTestId('nav-soon')).toHaveText('Les CitésBientôt');
  await page.context().close();
});

test('a server’s page: its title counts the players its settings allow, its MOTD in colour without codes, a ban asked with a reason, and whole activity lines', async ({ browser }) => {
  const { page, gamePath } = await buyServerInStore(browser, `slips_${run}`, 'Monde des détails');
  const gameId = gamePath.split('/').pop()!;
  const player = await api(page);
  expect((await player.put(`/v1/game/${gameId}/settings`, { maxPlayers: 3, motd: '§aBienvenue §c§lici' })).status()).toBe(200);

  // The page follows the change: 3 players, and the MOTD drawn as the game draws it.
  await expect(page.getByText(/^Minecraft .* · 3 joueurs$/)).toBeVisible();
  const motd = page.getByTestId('game-motd');
  await expect(motd).toHaveText('Bienvenue ici');
  await expect(motd.getByText('Bienvenue')).toHaveCSS('color', 'rgb(85, 255, 85)');
  await expect(motd.getByText('ici')).toHaveCSS('color', 'rgb(255, 85, 85)');
  await expect(motd.getByText('ici')).toHaveCSS('font-weight', '700');

  // A ban is asked first, and its reason goes with it.
  const lists = page.getByRole('tab', { name: 'Bannis' });
  await lists.click();
  await page.getByLabel('Pseudo Minecraft').fill('Griefer_1');
  await page.getByRole('button', { name: 'Ajouter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Bannir Griefer_1 ?' });
  await dialog.getByLabel('Motif (facultatif, montré au joueur)').fill('Destruction de spawn');
  const banned = page.waitForRequest((r) => r.url().endsWith('/minecraft/player') && r.method() === 'POST');
  await dialog.getByRole('button', { name: 'Bannir' }).click();
  expect((await banned).postDataJSON()).toEqual({ name: 'Griefer_1', type: 'BANNED', action: 'ADD', reason: 'Destruction de spawn' });
  await expect(page.getByText('Griefer_1')).toBeVisible();

  // An operator made and a task run by hand read as whole sentences in the activity.
  expect((await player.post(`/v1/game/${gameId}/minecraft/player`, { name: 'AliceBot', type: 'OPS', action: 'ADD' })).status()).toBe(200);
  const schedule = await player.post(`/v1/game/${gameId}/schedules`, { task: 'command', command: 'list', repeat: 'hours', everyHours: 1, timeZone: 'Europe/Paris' });
  expect(schedule.status(), await schedule.text()).toBe(201);
  await player.post(`/v1/game/${gameId}/schedules/${((await schedule.json()) as { id: string }).id}/run`, {});
  await openTab(page, 'Activité');
  const actions = page.getByTestId('activity-action');
  for (const sentence of ['A fait de AliceBot un opérateur', 'A exécuté une tâche planifiée : Commande', 'A banni Griefer_1']) {
    const line = actions.filter({ hasText: sentence });
    await expect(line).toHaveCount(1);
    // Drawn whole: nothing of it is cut off by its row.
    expect(await line.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.closest('[role=gridcell]')!.scrollHeight <= el.closest('[role=gridcell]')!.clientHeight + 1)).toBe(true);
  }
  await page.context().close();
});

test('a friend request’s notification opens the Requests tab, which counts the requests waiting', async ({ browser }) => {
  const asker = await signUp(browser, `asker_${run}`);
  const friend = await signUp(browser, `asked_${run}`);
  const friendId = ((await (await (await api(friend)).get('/v1/user')).json()) as { id: string }).id;
  expect((await (await api(asker)).post('/v1/friend', { userId: friendId })).status()).toBe(201);

  const bell = friend.getByTestId('notification-bell');
  await expect(bell).toHaveAccessibleName('Notifications, 1 non lue');
  await bell.click();
  await friend.getByRole('dialog', { name: 'Notifications' }).getByRole('link', { name: 'Ouvrir' }).first().click();
  await expect(friend).toHaveURL(/\/dashboard\/social\?tab=requests$/);
  await expect(friend.getByRole('tab', { name: 'Demandes (1)' })).toHaveAttribute('aria-selected', 'true');
  await expect(friend.getByTestId(`request-asker_${run}`)).toBeVisible();
  await asker.context().close();
  await friend.context().close();
});

test('support opening an edit page see the record read-only, with no button that would be refused', async ({ browser, request }) => {
  const staff = await staffApi(request);
  const made = await staff.post('/v1/pricing', { credits: 321, priceCents: 321, currency: 'EUR', label: { fr: `Lecture ${run}`, en: `Reading ${run}` } });
  expect(made.status()).toBe(201);
  const page = await signedIn(browser, accounts.support, `/dashboard/staff/packs/edit/${((await made.json()) as { id: string }).id}`);
  await expect(page.getByTestId('read-only')).toHaveText('Lecture seule : seul le staff peut modifier cette fiche.');
  await expect(page.getByLabel('Libellé (français)')).toHaveValue(`Lecture ${run}`);
  await expect(page.getByLabel('Libellé (anglais)')).toHaveValue(`Reading ${run}`);
  await expect(page.getByLabel('Libellé (français)')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Enregistrer' })).toHaveCount(0);
  await page.context().close();
});

test('a kick asks for a reason the player is shown, and "was kicked" goes once the player is back', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(300_000);
  const { page } = await buyServerInStore(browser, `kicker_${run}`, 'Monde des expulsions');
  await page.getByRole('button', { name: 'Démarrer', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Démarrer', exact: true }).click();
  await expect(page.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  const port = await serverPort(page);
  const player = `Kicked_${run}`;
  const first = await join(port, player, '1.21.4');
  if (!first.joined) throw new Error(`${player} could not join: ${first.reason}`);
  try {
    await page.getByRole('listitem').filter({ hasText: player }).getByRole('button', { name: 'Expulser' }).click({ timeout: 90_000 });
    const dialog = page.getByRole('dialog', { name: 'Expulser ce joueur ?' });
    await dialog.getByLabel('Motif (facultatif, montré au joueur)').fill('Pause goûter');
    const gone = kicked(first.bot);
    await dialog.getByRole('button', { name: 'Expulser' }).click();
    expect(await gone).toContain('Pause goûter');
    await expect(page.getByText(`${player} a été expulsé.`)).toBeVisible();
  } finally {
    await quit(first.bot);
  }
  await expect(page.getByRole('listitem').filter({ hasText: player })).toHaveCount(0, { timeout: 90_000 });
  const again = await join(port, player, '1.21.4');
  if (!again.joined) throw new Error(`${player} could not join again: ${again.reason}`);
  try {
    await expect(page.getByRole('listitem').filter({ hasText: player })).toBeVisible({ timeout: 90_000 });
    await expect(page.getByText(`${player} a été expulsé.`)).toHaveCount(0);
  } finally {
    await quit(again.bot);
  }
  await page.context().close();
});
