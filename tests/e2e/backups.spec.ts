import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { join, quit, solidGroundNear } from '../fixtures/minecraft.ts';
import { entryOf, readLevelDat, renamed, worldEntries, zipOf } from '../fixtures/worlds.ts';
import { buyServerInStore, expect, openTab, pickOption, picturesInEachLook, serverPort, shoot, test } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/backups';
const run = Date.now().toString(36).toUpperCase();

/** The backups section at 1280 and 375 px, in both themes and both languages. */
async function screenshots(page: Page, gamePath: string) {
  for (const lang of ['fr', 'en'] as const) {
    const card = page.getByTestId('backups');
    await picturesInEachLook(
      page,
      async () => {
        await page.goto(lang === 'fr' ? `${gamePath}/backups` : `/en${gamePath}/backups`);
        await expect(card.getByTestId('backup-item').first()).toBeVisible({ timeout: 15_000 });
        await expect(card.getByTestId('nightly-zone')).toBeVisible();
      },
      async ({ theme, label }) => {
        // The card alone, cut from the whole page: an element's shot would scroll it under the sticky header.
        await page.evaluate(() => window.scrollTo(0, 0));
        const box = (await card.boundingBox())!;
        await shoot(page, { path: `${SHOTS}/backups-${lang}-${label}-${theme}.png`, fullPage: true, clip: box });
      },
    );
  }
}

/** The backup item whose id is `id`. */
const item = (page: Page, id: string): Locator => page.locator(`[data-testid="backup-item"][data-backup-id="${id}"]`);

/** A player on the server, by a real Minecraft client, at the address the control panel shows. */
async function joined(page: Page, name: string) {
  await openTab(page, 'Aperçu');
  const port = await serverPort(page);
  await openTab(page, 'Sauvegardes');
  const result = await join(port, name, '1.21.4');
  if (!result.joined) throw new Error(`${name} could not join: ${result.reason}`);
  await result.bot.waitForChunksToLoad();
  return result.bot;
}

test(
  'a player backs up a running server with a player on it, pins, downloads and restores a backup (the player finds the old world), deletes another, and cannot upload an unsafe world',
  { tag: '@game-server' },
  async ({ browser }) => {
    test.setTimeout(300_000);
    const player = `saver_${run.toLowerCase()}`;
    const { page, token, gamePath } = await buyServerInStore(browser, player, 'Monde sauvegardé');
    const status = page.getByTestId('game-status').first();

    // No backup yet, on the server's Backups tab; the nightly settings show this browser's zone.
    await openTab(page, 'Sauvegardes');
    await expect(page).toHaveURL(new RegExp(`${gamePath}/backups$`));
    const card = page.getByTestId('backups');
    await expect(card.getByRole('heading', { name: 'Sauvegardes' })).toBeVisible();
    await expect(card.getByText('Aucune sauvegarde pour l’instant')).toBeVisible();
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await expect(card.getByTestId('nightly-zone')).toHaveText(`Heure de votre fuseau : ${zone}`);

    await openTab(page, 'Aperçu');
    await page.getByRole('button', { name: 'Démarrer', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Démarrer', exact: true }).click();
    await expect(status).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
    await openTab(page, 'Sauvegardes');

    // The nightly backup, on by default at 04:00 (Paris time): at 03:00 instead, saved with this browser's zone.
    const nightly = card.getByRole('checkbox', { name: 'Une sauvegarde chaque nuit' });
    await expect(nightly).toBeChecked();
    await expect(card.getByLabel('Heure')).toHaveText('04:00');
    await pickOption(card.getByLabel('Heure'), '03:00');
    await expect(card.getByLabel('Heure')).toHaveText('03:00');
    await nightly.click();
    await expect(nightly).not.toBeChecked();
    await expect(card.getByLabel('Heure')).toHaveAttribute('aria-disabled', 'true');
    await nightly.click();
    await expect(nightly).toBeChecked();
    const gameId = gamePath.split('/').pop()!;
    await expect
      .poll(async () => (await page.request.get(`/v1/game/${gameId}/backup-settings`, { headers: { authorization: `Bearer ${token}` } })).json())
      .toEqual({ nightly: true, hour: 3, timeZone: zone });

    // A player plays on while the world is backed up.
    const bot = await joined(page, 'Digger_e2e');
    const ground = solidGroundNear(bot);
    const groundName = ground.name;

    // Two backups of the running world, each READY in turn, the button held while one runs.
    const now = card.getByRole('button', { name: 'Sauvegarder maintenant' });
    await now.click();
    await expect(card.getByTestId('backup-item')).toHaveCount(1);
    await expect(card.getByTestId('backup-status').first()).toHaveAttribute('data-status', 'READY', { timeout: 60_000 });
    // Still connected through it; then the player digs the block out.
    expect(bot.entity).toBeTruthy();
    await bot.dig(ground);
    await expect.poll(() => bot.blockAt(ground.position)?.name).toBe('air');
    await expect(card.getByTestId('backup-item').first()).toContainText(`par ${player}`);
    // The package keeps 3: the tab says how many are used.
    await expect(card.getByTestId('backups-quota')).toHaveText('1 / 3 sauvegardes');
    await expect(card.getByTestId('backup-item').first()).toContainText(/\d+(,\d)?\s(o|ko|Mo)\b/);
    const first = (await card.getByTestId('backup-item').first().getAttribute('data-backup-id'))!;
    await expect(now).toBeEnabled();
    await now.click();
    await expect(card.getByTestId('backup-item')).toHaveCount(2);
    await expect(card.getByTestId('backup-status').first()).toHaveAttribute('data-status', 'READY', { timeout: 60_000 });
    const second = (await card.getByTestId('backup-item').first().getAttribute('data-backup-id'))!;
    expect(second).not.toBe(first);

    // A refused backup says why, in place.
    await page.route(`**/v1/game/${gameId}/backups`, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 409,
            contentType: 'application/problem+json',
            body: JSON.stringify({ type: 'about:blank', title: 'Conflict', status: 409, code: 'backups.busy', detail: 'Une sauvegarde ou une restauration est déjà en cours pour ce serveur' }),
          })
        : route.fallback(),
    );
    await now.click();
    await expect(card.getByTestId('backup-result')).toHaveText('La sauvegarde n’a pas pu être lancée. Une sauvegarde ou une restauration est déjà en cours pour ce serveur');
    await page.unroute(`**/v1/game/${gameId}/backups`);

    // Pin the first one.
    await item(page, first)
      .getByRole('button', { name: /^Épingler la sauvegarde du / })
      .click();
    await expect(item(page, first).getByTestId('backup-pinned')).toBeVisible();
    await expect(item(page, first).getByRole('button', { name: /^Désépingler la sauvegarde du / })).toHaveAttribute('aria-pressed', 'true');

    // Download it: a .zip, as Minecraft opens it.
    const downloading = page.waitForEvent('download');
    await item(page, first).getByRole('button', { name: 'Télécharger' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    // Minecraft opens it: level.dat in the world's folder, gzipped NBT with its Data.
    expect(readLevelDat(await entryOf(bytes, 'world/level.dat')).value.Data?.type).toBe('compound');
    await expect(page).toHaveURL(new RegExp(`${gamePath}/backups$`));

    // Restore it, after the confirmation: the current world is backed up first, the server restarts.
    await item(page, first).getByRole('button', { name: 'Restaurer' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Le monde actuel est d’abord sauvegardé');
    await expect(dialog).toContainText('le serveur redémarre');
    await dialog.getByRole('button', { name: 'Restaurer' }).click();
    await expect(card.getByTestId('backup-result')).toContainText('Restauration lancée');
    await expect(card.locator('[data-testid="backup-item"][data-kind="AUTOMATIC"]')).toHaveCount(1, { timeout: 30_000 });
    await expect(status).not.toHaveAttribute('data-status', 'RUNNING', { timeout: 60_000 });
    await expect(status).toHaveAttribute('data-status', 'RUNNING', { timeout: 120_000 });
    await expect(card.locator('[data-testid="backup-item"][data-kind="AUTOMATIC"]').getByTestId('backup-status')).toHaveAttribute('data-status', 'READY');
    // The automatic backup says why it was taken; the package's 3 places are full.
    await expect(card.locator('[data-testid="backup-item"][data-kind="AUTOMATIC"]')).toContainText('Avant une restauration');
    await expect(card.getByTestId('backups-quota')).toHaveText('3 / 3 sauvegardes');
    // The player, back on the restarted server, finds the block as it was at the backup.
    await quit(bot);
    const back = await joined(page, 'Digger_e2e');
    await expect.poll(() => back.blockAt(ground.position)?.name).toBe(groundName);
    await quit(back);

    // A backup now would delete one to make room: it asks first and names it (the automatic one goes
    // before the manual ones). Cancelled, nothing is taken.
    await now.click();
    await expect(dialog).toContainText('Sauvegarder maintenant ?');
    await expect(dialog).toContainText('Pour rester dans les 3 sauvegardes de votre offre, cette sauvegarde sera supprimée');
    await expect(dialog).toContainText('(Avant une restauration)');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card.getByTestId('backup-item')).toHaveCount(3);

    // A world whose zip reaches out of its folder is refused with the reason, and nothing changes.
    const items = await card.getByTestId('backup-item').count();
    const evil = renamed(await zipOf([...worldEntries(), { name: 'world/aa/evil', data: 'x' }]), 'aa/evil', '../evil');
    await card.getByTestId('world-file').setInputFiles({ name: 'monde.zip', mimeType: 'application/zip', buffer: evil });
    await expect(dialog).toContainText('monde.zip');
    await expect(dialog).toContainText('Le monde actuel est d’abord sauvegardé');
    await expect(dialog).toContainText('cette sauvegarde sera supprimée : ');
    await expect(dialog).toContainText('(Avant une restauration)');
    await dialog.getByRole('button', { name: 'Remplacer le monde' }).click();
    await expect(card.getByTestId('backup-result')).toContainText('Le monde n’a pas été importé ; rien n’a changé.');
    await expect(card.getByTestId('backup-result')).toContainText('..');
    await expect(card.getByTestId('backup-item')).toHaveCount(items);
    await expect(status).toHaveAttribute('data-status', 'RUNNING');

    // Delete the second one, after the confirmation.
    await item(page, second)
      .getByRole('button', { name: /^Supprimer la sauvegarde du / })
      .click();
    await expect(dialog).toContainText('supprimées définitivement');
    await dialog.getByRole('button', { name: 'Supprimer' }).click();
    await expect(item(page, second)).toHaveCount(0);
    await expect(card.getByTestId('backup-item')).toHaveCount(2);
    await expect(card.getByTestId('backups-quota')).toHaveText('2 / 3 sauvegardes');

    await screenshots(page, gamePath);

    // A backup under way shows its percentage; one kept past its world's deletion says until when,
    // and offers no restore. The list is answered as the API would then.
    await page.route(
      (url) => url.pathname === `/v1/game/${gameId}/backups`,
      async (route) => {
        if (route.request().method() !== 'GET') return route.fallback();
        const listed = (await (await route.fetch()).json()) as { data: Array<Record<string, unknown>> };
        listed.data[0] = { ...listed.data[0], status: 'RUNNING', progress: 42, sizeBytes: null, sha256: null, finishedAt: null };
        listed.data[1] = { ...listed.data[1], expiresAt: '2026-12-31T12:00:00.000Z' };
        await route.fulfill({ json: listed });
      },
    );
    await page.goto(`${gamePath}/backups`);
    const [running, kept] = [card.getByTestId('backup-item').nth(0), card.getByTestId('backup-item').nth(1)];
    await expect(running.getByRole('progressbar', { name: /^Avancement de la sauvegarde du / })).toHaveAttribute('aria-valuenow', '42');
    await expect(running.getByTestId('backup-progress')).toHaveText('42 %');
    await expect(kept).toContainText('reste téléchargeable jusqu’au 31 déc. 2026');
    await expect(kept.getByRole('button', { name: 'Restaurer' })).toHaveCount(0);
    await expect(kept.getByRole('button', { name: 'Télécharger' })).toBeVisible();
    await picturesInEachLook(
      page,
      () => expect(running.getByTestId('backup-progress')).toBeVisible(),
      async ({ theme, label }) => {
        await page.evaluate(() => window.scrollTo(0, 0));
        await shoot(page, { path: `${SHOTS}/backups-progress-${label}-${theme}.png`, fullPage: true, clip: (await card.boundingBox())! });
      },
    );
    await page.context().close();
  },
);
