import { apiAs, buyServerInStore, expect, inEachLook, openTab, picturesInEachLook, shoot, takingLooks, test } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/game-deletion';
const run = Date.now().toString(36).toLowerCase();

test('an owner deletes a server by typing its name: gone from their servers, its last backup downloadable from the account page', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(300_000);
  const name = 'Monde à supprimer';
  const { page, token, gamePath } = await buyServerInStore(browser, `deleter_${run}`, name);

  // Started once, so the world exists and its last backup holds something.
  await page.getByRole('button', { name: 'Démarrer', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Démarrer', exact: true }).click();
  await expect(page.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });

  await openTab(page, 'Réglages');
  const zone = page.getByTestId('danger-zone');
  await expect(zone.getByText('Ce qui a été payé n’est pas remboursé.', { exact: false })).toBeVisible();
  const dialog = page.getByRole('dialog');
  const open = async () => {
    await zone.getByRole('button', { name: 'Supprimer ce serveur' }).click();
    await expect(dialog.getByText('n’est pas remboursé', { exact: false })).toBeVisible();
  };
  // The dialog in each look, closed in between: the theme's toggle is under it.
  await picturesInEachLook(
    page,
    () => expect(zone).toBeVisible(),
    async ({ theme, label }) => {
      await open();
      await shoot(page, { path: `${SHOTS}/delete-dialog-fr-${label}-${theme}.png` });
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    },
  );
  if (takingLooks) {
    // The same dialog in English, for the pictures alone.
    await page.goto(`/en${gamePath}`);
    await inEachLook(
      page,
      () => openTab(page, 'Settings'),
      async ({ theme, label }) => {
        await zone.getByRole('button', { name: 'Delete this server' }).click();
        await expect(dialog).toBeVisible();
        await shoot(page, { path: `${SHOTS}/delete-dialog-en-${label}-${theme}.png` });
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      },
    );
    await page.goto(gamePath);
    await openTab(page, 'Réglages');
  }
  await open();

  // The button waits for the name, exactly.
  const confirm = dialog.getByRole('button', { name: 'Supprimer définitivement' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Tapez « ${name} » pour confirmer`).fill('Monde a supprimer');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Tapez « ${name} » pour confirmer`).fill(name);
  await confirm.click();

  // Back on the player's servers, where it is no more; its own address answers that it is gone.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(name)).toHaveCount(0);
  await page.goto(gamePath);
  await expect(page.getByText('Ce serveur n’existe pas, ou il n’est pas à vous.')).toBeVisible();

  // The backup rounds, woken by the deletion, stop it, back it up one last time and free it: the
  // account page offers that backup. Awaited through the API the page reads: reloading the page
  // until it shows cut each load short when a busy machine took more than a reload's wait to draw it.
  const owner = apiAs(page.request, token);
  await expect.poll(async () => ((await (await owner.get('/v1/backups/kept')).json()) as unknown[]).length, { timeout: 180_000 }).toBe(1);
  await page.goto('/dashboard/account');
  const kept = page.getByTestId('kept-backups');
  await expect(kept.getByText(name)).toBeVisible();
  await picturesInEachLook(
    page,
    () => expect(kept).toBeVisible(),
    async ({ theme, label }) => {
      await page.evaluate(() => window.scrollTo(0, 0));
      await shoot(page, { path: `${SHOTS}/kept-backups-fr-${label}-${theme}.png`, fullPage: true, clip: (await kept.boundingBox())! });
    },
  );
  const download = page.waitForEvent('download');
  await kept.getByRole('button', { name: 'Télécharger' }).click();
  expect((await download).suggestedFilename()).toMatch(/^Monde-a-supprimer-.*\.zip$/);
});
