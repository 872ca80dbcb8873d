import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { accounts, apiAs, expect, followScripts, mintToken, picturesInEachLook, seriousViolations, shoot, signedIn, signIn, staffApi, test, transitionsEnded } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/staff-backups';
const run = Date.now().toString(36);

type Api = ReturnType<typeof apiAs>;
interface BackupRow {
  id: string;
  kind: string;
  status: string;
}

/** A player with a running server of the cheapest package, bought with credits staff gave. */
async function playerWithServer(request: APIRequestContext, name: string) {
  const player = apiAs(request, await mintToken(name));
  const me = (await (await player.get('/v1/user')).json()) as { id: string };
  const staff = await staffApi(request);
  expect((await staff.post('/v1/user/credit', { userId: me.id, amount: 300, reason: 'Browser test credits' })).status()).toBe(200);
  const definitions = (await (await request.get('/v1/definition/game/list?size=100')).json()) as {
    data: Array<{ id: string; name: { fr: string }; packages: Array<{ id: string; priceCredits: number }> }>;
  };
  const definition = definitions.data.find((d) => d.name.fr === 'Survie')!;
  const pack = [...definition.packages].sort((a, b) => a.priceCredits - b.priceCredits)[0]!;
  const created = await player.post('/v1/game/create', { definitionId: definition.id, packageId: pack.id, name: `Monde ${name}`, autoRenew: false });
  expect(created.status()).toBe(201);
  const gameId = ((await created.json()) as { id: string }).id;
  expect((await player.post(`/v1/game/${gameId}/start`, {})).status()).toBe(200);
  await expect.poll(async () => ((await (await player.get(`/v1/game/${gameId}`)).json()) as { status: string }).status, { timeout: 120_000 }).toBe('RUNNING');
  return { name, gameId, api: player };
}

/** The owner backs their world up and waits for the backup to be READY. */
async function backUp(player: Api, gameId: string): Promise<string> {
  const res = await player.post(`/v1/game/${gameId}/backups`, {});
  expect(res.status()).toBe(202);
  const { id } = (await res.json()) as { id: string };
  await expect.poll(async () => (await backups(player, gameId)).find((b) => b.id === id)?.status, { timeout: 90_000 }).toBe('READY');
  return id;
}

const backups = async (player: Api, gameId: string) => ((await (await player.get(`/v1/game/${gameId}/backups`)).json()) as { data: BackupRow[] }).data;

/** The staff backups section, and one of its rows by backup id. */
const section = (page: Page) => page.getByTestId('staff-backups');
const row = (page: Page, id: string): Locator => section(page).locator(`.MuiDataGrid-row[data-id="${id}"]`);

test('staff see a player’s backups, restore one with a reason, and find it in the audit log; support only read', { tag: '@game-server' }, async ({ browser, request }) => {
  test.setTimeout(420_000);
  const player = await playerWithServer(request, `keeper_${run}`);
  const gamePath = `/dashboard/staff/games/show/${player.gameId}`;
  const page = await signedIn(browser, accounts.staff, '/dashboard/staff/users');
  await page.goto(gamePath);
  await expect(page.getByRole('heading', { level: 1, name: `Monde ${player.name}` })).toBeVisible();
  await expect(section(page).getByRole('heading', { level: 2, name: 'Sauvegardes' })).toBeVisible();
  await expect(section(page).getByText('Aucune sauvegarde pour l’instant')).toBeVisible();
  await shoot(page, { path: `${SHOTS}/empty-fr-desktop-light.png`, fullPage: true, clip: (await section(page).boundingBox())! });

  // The owner backs up twice and pins the first; staff see them on the page's refresh.
  const first = await backUp(player.api, player.gameId);
  expect((await player.api.patch(`/v1/game/${player.gameId}/backups/${first}`, { pinned: true })).status()).toBe(200);
  const second = await backUp(player.api, player.gameId);
  await page.getByRole('button', { name: 'Actualiser' }).click();
  // Newest first, each with its kind, size, status and author; the pinned one marked.
  await expect(section(page).locator('.MuiDataGrid-row')).toHaveCount(2);
  await expect(section(page).locator('.MuiDataGrid-row').first()).toHaveAttribute('data-id', second);
  for (const id of [first, second]) {
    await expect(row(page, id)).toContainText('Manuelle');
    await expect(row(page, id)).toContainText(player.name);
    await expect(row(page, id).locator('[data-field="sizeBytes"]')).toHaveText(/^\d+(,\d)?\s(o|ko|Mo)$/);
    await expect(row(page, id).getByTestId('backup-status')).toHaveAttribute('data-status', 'READY');
  }
  await expect(row(page, first).getByTestId('backup-pinned')).toBeVisible();
  await expect(row(page, second).getByTestId('backup-pinned')).toHaveCount(0);

  // Support see the backups and no restore.
  const reader = await (await browser.newContext()).newPage();
  await reader.setViewportSize({ width: 1280, height: 900 });
  await signIn(reader, accounts.support, '/dashboard/staff/users');
  // The access check runs in the page, without a request: once it is idle with its code loaded, it has answered.
  const scripts = followScripts(reader);
  await reader.goto(gamePath);
  await expect(row(reader, first)).toContainText('Prête');
  await scripts.settled();
  await expect(section(reader).getByRole('button', { name: /Restaurer/ })).toHaveCount(0);
  await reader.context().close();

  // Restore the first one: a reason is required, then it is accepted and said so.
  await row(page, first)
    .getByRole('button', { name: /^Restaurer la sauvegarde du / })
    .click();
  const dialog = page.getByTestId('restore-dialog');
  await expect(dialog).toContainText(`Le monde actuel de Monde ${player.name} est d’abord sauvegardé`);
  await expect(dialog).toContainText(`${player.name} est prévenu du résultat`);
  await dialog.getByRole('button', { name: 'Restaurer', exact: true }).click();
  await expect(dialog.getByText('Obligatoire', { exact: true })).toBeVisible();
  await dialog.getByTestId('action-reason').fill(`Griefed while away, ticket ${run}`);
  await transitionsEnded(page);
  await shoot(page, { path: `${SHOTS}/restore-dialog-desktop-light.png` });
  const accepted = page.waitForResponse((r) => r.url().endsWith(`/backups/${first}/restore`) && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Restaurer', exact: true }).click();
  expect((await accepted).status()).toBe(202);
  // A second restore while this one runs is refused (backups.busy): tests/api/backups-staff.test.ts
  // holds the backup open to check it. Here a tiny world's whole restore can end before a second
  // request arrives, however soon it is sent.
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Restauration de Monde ${player.name} lancée.`)).toBeVisible();
  await expect(section(page).getByTestId('restore-started')).toContainText('Restauration lancée');

  // The owner's world is backed up first, the backup put back, and the server runs again.
  await expect.poll(async () => (await backups(player.api, player.gameId)).filter((b) => b.kind === 'AUTOMATIC' && b.status === 'READY').length, { timeout: 120_000 }).toBe(1);
  await expect
    .poll(async () => ((await (await player.api.get('/v1/user/notifications')).json()) as { data: Array<{ data: { key: string } }> }).data.map((n) => n.data.key), { timeout: 180_000 })
    .toContain('backup.restored');
  await expect.poll(async () => ((await (await player.api.get(`/v1/game/${player.gameId}`)).json()) as { status: string }).status, { timeout: 120_000 }).toBe('RUNNING');
  // Staff see it on the page's refresh.
  await page.getByRole('button', { name: 'Actualiser' }).click();
  await expect(section(page).locator('.MuiDataGrid-row')).toHaveCount(3);
  await expect(section(page).locator('.MuiDataGrid-row').first()).toContainText('Automatique');
  await expect(section(page).locator('.MuiDataGrid-row').first().getByTestId('backup-status')).toHaveAttribute('data-status', 'READY');

  // The snackbar saying it was accepted sits over the list until it goes: looked at without it.
  await expect(page.getByText(`Restauration de Monde ${player.name} lancée.`)).toBeHidden({ timeout: 30_000 });
  expect(await seriousViolations(page, { include: '[data-testid="staff-backups"]' })).toEqual([]);

  // The audit log keeps who restored which backup, and why; only once.
  await page.getByRole('link', { name: 'Modifications de l’équipe sur ce serveur' }).click();
  const entries = page.getByTestId('audit-grid').locator('.MuiDataGrid-row');
  await expect(entries.filter({ hasText: `Griefed while away, ticket ${run}` })).toContainText('Sauvegarde restaurée');
  await expect(entries.filter({ hasText: 'Sauvegarde restaurée' })).toHaveCount(1);

  await screenshots(page, gamePath, first);
  await page.context().close();
});

/** The backups section at 1280 and 375 px, in both themes and both languages. */
async function screenshots(page: Page, gamePath: string, anyId: string) {
  for (const lang of ['fr', 'en'] as const) {
    await picturesInEachLook(
      page,
      async () => {
        await page.goto(lang === 'fr' ? gamePath : `/en${gamePath}`);
        await expect(row(page, anyId)).toBeVisible({ timeout: 20_000 });
      },
      async ({ theme, label }) => {
        // The section alone, cut from the whole page: an element's shot would scroll it under the sticky header.
        await page.evaluate(() => window.scrollTo(0, 0));
        const box = (await section(page).boundingBox())!;
        await shoot(page, { path: `${SHOTS}/backups-${lang}-${label}-${theme}.png`, fullPage: true, clip: box });
      },
    );
  }
}

test('the package editor shows each package’s backup quota, checks it and saves it', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const staff = await staffApi(request);
  const created = await staff.post('/v1/definition/game', {
    name: { fr: `Quotas ${run}`, en: `Quotas ${run}` },
    description: { fr: 'Pour les sauvegardes', en: 'For backups' },
    version: '1.21.4',
  });
  expect(created.status()).toBe(201);
  const definitionId = ((await created.json()) as { id: string }).id;
  const pack = await staff.post('/v1/definition/game/package', { definitionId, name: { fr: 'Solo', en: 'Solo' }, ramMb: 1024, maxPlayers: 5, periodDays: 30, priceCredits: 50 });
  expect(pack.status()).toBe(201);

  const page = await signedIn(browser, accounts.staff, `/dashboard/staff/definitions/edit/${definitionId}`);
  const editor = page.getByTestId('package-row').first();
  // A package made without a quota has the API's: 7 backups in 10 GB.
  const kept = editor.getByLabel('Sauvegardes gardées');
  const space = editor.getByLabel('Espace de sauvegarde');
  await expect(kept).toHaveValue('7');
  await expect(space).toHaveValue('10240');
  await expect(editor.getByText('Mo', { exact: true })).toBeVisible();

  // Out of bounds: named under the field before anything is sent.
  await kept.fill('0');
  await space.fill('50');
  await editor.getByRole('button', { name: 'Enregistrer l’offre' }).click();
  await expect(editor.getByText('De 1 à 100', { exact: true })).toBeVisible();
  // French groups thousands with narrow no-break spaces.
  await expect(editor.getByText(/^De 100 à 1\s000\s000$/)).toBeVisible();
  await kept.fill('12');
  await space.fill('20480');
  await editor.getByRole('button', { name: 'Enregistrer l’offre' }).click();
  await expect(page.getByText('Offre Solo enregistrée')).toBeVisible();
  await expect(editor.getByRole('button', { name: 'Enregistrer l’offre' })).toBeDisabled();
  const saved = (await (await staff.get(`/v1/definition/game/${definitionId}`)).json()) as { packages: Array<{ backupsKept: number; backupsMaxMb: number }> };
  expect(saved.packages[0]).toMatchObject({ backupsKept: 12, backupsMaxMb: 20480 });

  // In English, after a reload: what was saved.
  await page.goto(`/en/dashboard/staff/definitions/edit/${definitionId}`);
  await expect(page.getByTestId('package-row').first().getByLabel('Backups kept')).toHaveValue('12');
  await expect(page.getByTestId('package-row').first().getByLabel('Backup space')).toHaveValue('20480');
  await shoot(page, { path: `${SHOTS}/package-editor-en-desktop-light.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await shoot(page, { path: `${SHOTS}/package-editor-en-phone-light.png`, fullPage: true });
  await page.context().close();
});
