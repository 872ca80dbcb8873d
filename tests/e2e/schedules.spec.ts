import { buyServerInStore, expect, openTab, pickOption, picturesInEachLook, shoot, test, transitionsEnded } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/schedules';

// A player in Paris: a new task starts on the browser's zone.
test.use({ timezoneId: 'Europe/Paris' });

test('the owner schedules a nightly restart and a command, runs the command now and deletes a task', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(300_000);
  const run = Date.now().toString(36).slice(-5);
  const { page, gamePath } = await buyServerInStore(browser, `sched_${run}`, 'Planifié');

  // The Planification tab, at its own address: nothing scheduled yet.
  await openTab(page, 'Planification');
  await expect(page).toHaveURL(new RegExp(`${gamePath}/schedules$`));
  await expect(page.getByText('Aucune tâche planifiée')).toBeVisible();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await shoot(page, { path: `${SHOTS}/schedules-empty-fr-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // A restart every day at 04:00, with the players warned before.
  await page.getByRole('button', { name: 'Nouvelle tâche' }).click();
  const form = page.getByTestId('schedule-form');
  await expect(form.getByRole('combobox', { name: 'Tâche' })).toHaveText('Redémarrer');
  await expect(form.getByRole('combobox', { name: 'Fuseau horaire' })).toHaveValue('Europe/Paris');
  await form.getByLabel('Heure', { exact: true }).fill('04:00');
  await form.getByLabel('Prévenir les joueurs 60, 30 et 10 secondes avant').check();
  await form.getByRole('button', { name: 'Créer' }).click();
  await expect(form).toHaveCount(0);
  const restart = page.getByTestId('schedule-row').filter({ hasText: 'Redémarrer' });
  await expect(restart.getByTestId('schedule-rule')).toContainText('Tous les jours à 04:00');
  await expect(restart.getByTestId('schedule-next')).toContainText(/^Prochaine fois : .*04:00/);
  await expect(restart).toContainText('Compte à rebours');
  await expect(page.getByText('Aucune tâche planifiée')).toHaveCount(0);

  // A command on Monday, Wednesday and Friday: a bad time is refused on its field, an unknown zone by the API on its own.
  await page.getByRole('button', { name: 'Nouvelle tâche' }).click();
  await pickOption(form.getByRole('combobox', { name: 'Tâche' }), 'Commande');
  // Its example is French on a French page.
  await expect(form.getByRole('textbox', { name: 'Commande' })).toHaveAttribute('placeholder', 'say Bonjour');
  await form.getByRole('textbox', { name: 'Commande' }).fill('say hello');
  await pickOption(form.getByRole('combobox', { name: 'Répétition' }), 'Certains jours');
  for (const day of ['Lundi', 'Mercredi', 'Vendredi']) await form.getByRole('button', { name: day }).click();
  await form.getByLabel('Heure', { exact: true }).fill('25:00');
  await form.getByRole('button', { name: 'Créer' }).click();
  await expect(form.getByText('Une heure au format HH:MM, de 00:00 à 23:59.')).toBeVisible();
  await form.getByLabel('Heure', { exact: true }).fill('18:30');
  await form.getByRole('combobox', { name: 'Fuseau horaire' }).fill('Mars/Olympus');
  await form.getByRole('button', { name: 'Créer' }).click();
  await expect(form.getByText('Fuseau horaire inconnu : Mars/Olympus')).toBeVisible();
  await transitionsEnded(page);
  await page.setViewportSize({ width: 375, height: 812 });
  await shoot(page, { path: `${SHOTS}/schedules-form-error-fr-375.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await form.getByRole('combobox', { name: 'Fuseau horaire' }).fill('Europe/Paris');
  await form.getByRole('button', { name: 'Créer' }).click();
  await expect(form).toHaveCount(0);
  const command = page.getByTestId('schedule-row').filter({ hasText: 'say hello' });
  await expect(command.getByTestId('schedule-rule')).toContainText('Lun, mer, ven à 18:30 (Europe/Paris)');
  await expect(page.getByTestId('schedules-count')).toHaveText('2 tâches sur 10 au plus');

  // The server runs; the command is run now and its run is OK, with what the server answered.
  await page.goto(gamePath);
  await page.getByRole('button', { name: 'Démarrer', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Démarrer', exact: true }).click();
  await expect(page.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  await openTab(page, 'Planification');
  await command.getByRole('button', { name: 'Exécuter maintenant : Commande « say hello »' }).click();
  await expect(page.getByTestId('notice')).toContainText('Commande « say hello » : exécutée.');
  const last = command.getByTestId('schedule-run').first();
  await expect(last.getByTestId('run-status')).toHaveAttribute('data-status', 'OK');
  await expect(last).toContainText('à la demande');
  await expect(last.getByTestId('run-output')).toBeVisible();
  await expect(command.getByTestId('run-status').first()).toHaveText('OK');

  // How it looks, in both languages, themes and widths (the command's history open).
  for (const lang of ['fr', 'en'] as const) {
    await picturesInEachLook(
      page,
      async () => {
        await page.goto(`${lang === 'fr' ? '' : '/en'}${gamePath}/schedules`);
        const row = page.getByTestId('schedule-row').filter({ hasText: 'say hello' });
        await row.getByRole('button', { name: lang === 'fr' ? 'Historique' : 'History' }).click();
        await expect(row.getByTestId('schedule-run').first()).toBeVisible();
      },
      ({ theme, label }) => shoot(page, { path: `${SHOTS}/schedules-tab-${lang}-${label}-${theme}.png`, fullPage: true }),
    );
  }
  await page.goto(`${gamePath}/schedules`);

  // The command is moved to 19:00: the form opens with its rule, and the row says the new time.
  await command.getByRole('button', { name: 'Modifier : Commande « say hello »' }).click();
  await expect(form.getByRole('textbox', { name: 'Commande' })).toHaveValue('say hello');
  await expect(form.getByLabel('Heure', { exact: true })).toHaveValue('18:30');
  await form.getByLabel('Heure', { exact: true }).fill('19:00');
  await form.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(form).toHaveCount(0);
  await expect(command.getByTestId('schedule-rule')).toContainText('Lun, mer, ven à 19:00 (Europe/Paris)');
  await expect(command.getByTestId('schedule-next')).toContainText('19:00');

  // The restart is deleted once confirmed; the command stays.
  await restart.getByRole('button', { name: 'Supprimer : Redémarrer' }).click();
  await expect(page.getByRole('dialog')).toContainText('Tous les jours à 04:00');
  await page.getByRole('dialog').getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByTestId('notice')).toContainText('Redémarrer est supprimée.');
  await expect(page.getByTestId('schedule-row')).toHaveCount(1);
  await expect(command).toBeVisible();

  // The server is stopped for the next tests.
  await page.goto(gamePath);
  await page.getByRole('button', { name: 'Arrêter', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Arrêter', exact: true }).click();
  await expect(page.getByTestId('game-status').first()).toHaveAttribute('data-status', 'STOPPED', { timeout: 60_000 });
});
