import sharp from 'sharp';
import { pingServer } from '../../src/runtime/minecraft/probe.ts';
import { join, quit } from '../fixtures/minecraft.ts';
import {
  accounts,
  buyServerInStore,
  desktopChecks,
  expect,
  inEachLook,
  openTab,
  pickOption,
  seriousViolations,
  serverPort,
  shoot,
  shotsInEachLook,
  signIn,
  test,
  transitionsEnded,
} from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/settings';
const run = Date.now().toString(36).toLowerCase();

test('a player changes the MOTD and the game mode live and PvP with a restart, and a Minecraft client sees them', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(300_000);
  const { page, token, gamePath } = await buyServerInStore(browser, `tuner_${run}`, 'Monde réglé');
  const status = page.getByTestId('game-status').first();
  await page.getByRole('button', { name: 'Démarrer', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Démarrer', exact: true }).click();
  await expect(status).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  const port = await serverPort(page);

  // The Settings tab, at its own address.
  await openTab(page, 'Réglages');
  await expect(page).toHaveURL(new RegExp(`${gamePath}/settings$`));
  const form = page.getByTestId('settings-form');
  const motd = form.getByLabel('Message du jour (MOTD)');
  await expect(motd).toHaveValue('Un monde de survie BlockHost');
  // Nothing changed yet: nothing to apply.
  await expect(form.getByRole('button', { name: 'Appliquer', exact: true })).toBeDisabled();

  // A bad value is refused on its field by the browser's rule before anything is sent.
  const players = form.getByLabel('Joueurs max.');
  await players.fill('99');
  await form.getByRole('button', { name: 'Appliquer', exact: true }).click();
  await expect(form.getByText(/Au plus \d+ avec l’offre de ce serveur/)).toBeVisible();
  await players.fill(await players.getAttribute('max').then((max) => max!));

  // A refusal the API words for a field shows under that field, and nothing is said to be applied.
  const settingsUrl = `**/v1/game/${gamePath.split('/').pop()}/settings`;
  await page.route(settingsUrl, (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 400,
          contentType: 'application/problem+json',
          body: JSON.stringify({
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            code: 'request.invalidFields',
            detail: 'Champs invalides',
            errors: [{ field: 'motd', code: 'validation.maxLength', message: 'ne doit pas dépasser 59 caractères' }],
          }),
        })
      : route.fallback(),
  );
  await motd.fill('Refusé par le serveur');
  await form.getByRole('button', { name: 'Appliquer', exact: true }).click();
  await expect(form.getByText('ne doit pas dépasser 59 caractères')).toBeVisible();
  await expect(form.getByTestId('settings-outcome')).toHaveCount(0);
  await page.unroute(settingsUrl);

  // The MOTD, live: the players stay connected and the server list shows it at once.
  await motd.fill('Bienvenue chez les testeurs');
  await expect(form.getByTestId('settings-plan')).toHaveText('Ces changements s’appliquent tout de suite, les joueurs restent connectés.');
  await expect(form.getByRole('button', { name: 'Appliquer et redémarrer' })).toHaveCount(0);
  await form.getByRole('button', { name: 'Appliquer', exact: true }).click();
  await expect(form.getByTestId('settings-outcome')).toHaveText('Appliqué maintenant : Message du jour (MOTD).');
  expect((await pingServer('127.0.0.1', port)).motd).toBe('Bienvenue chez les testeurs');
  await expect(status).toHaveAttribute('data-status', 'RUNNING');

  // The game mode, live too: a player already in the game plays creative at once.
  const online = await join(port, 'Builder_e2e', '1.21.4');
  if (!online.joined) throw new Error(`could not join: ${online.reason}`);
  try {
    await pickOption(form.getByLabel('Mode de jeu'), 'Créatif');
    await expect(form.getByTestId('settings-plan')).toHaveText('Ces changements s’appliquent tout de suite, les joueurs restent connectés.');
    await form.getByRole('button', { name: 'Appliquer', exact: true }).click();
    await expect(form.getByTestId('settings-outcome')).toHaveText('Appliqué maintenant : Mode de jeu.');
    await expect.poll(() => online.bot.game.gameMode, { timeout: 20_000 }).toBe('creative');
  } finally {
    await quit(online.bot);
  }

  // PvP needs a restart: both buttons, then "Apply and restart".
  const pvp = form.getByLabel('Combat entre joueurs (PvP)');
  await pvp.click();
  await expect(form.getByTestId('settings-plan')).toContainText('Certains changements demandent un redémarrage');
  await form.getByRole('button', { name: 'Appliquer et redémarrer' }).click();
  await expect(form.getByTestId('settings-outcome')).toHaveText('Le serveur redémarre avec les nouveaux réglages.');
  await expect(status).not.toHaveAttribute('data-status', 'RUNNING', { timeout: 30_000 });
  await expect(status).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  await expect(pvp).not.toBeChecked();
  await expect(form.getByLabel('Mode de jeu')).toHaveText('Créatif');

  // The player who comes back plays in creative, and the MOTD survived the restart.
  await openTab(page, 'Aperçu');
  const newPort = await serverPort(page);
  expect((await pingServer('127.0.0.1', newPort)).motd).toBe('Bienvenue chez les testeurs');
  const result = await join(newPort, 'Builder_e2e', '1.21.4');
  if (!result.joined) throw new Error(`could not join: ${result.reason}`);
  try {
    await expect.poll(() => result.bot.game.gameMode, { timeout: 20_000 }).toBe('creative');
  } finally {
    await quit(result.bot);
  }

  // An icon from a large picture: previewed, sent, and shown as the server's 64×64 PNG.
  await openTab(page, 'Réglages');
  const iconCard = page.getByTestId('icon-card');
  await expect(iconCard.getByTestId('icon-preview')).toHaveText('Aucune');
  const picture = await sharp({ create: { width: 512, height: 384, channels: 3, background: '#2e7d32' } })
    .png()
    .toBuffer();
  await iconCard.locator('input[type=file]').setInputFiles({ name: 'creeper.png', mimeType: 'image/png', buffer: picture });
  await expect(iconCard).toContainText('Choisie : creeper.png');
  await iconCard.getByRole('button', { name: 'Utiliser cette icône' }).click();
  await expect(iconCard.getByRole('alert')).toHaveText('Icône enregistrée : visible une fois le serveur redémarré.');
  const icon = (await iconCard.getByRole('img', { name: 'Icône du serveur' }).getAttribute('src'))!;
  expect(icon).toMatch(/^data:image\/png;base64,/);
  expect(await sharp(Buffer.from(icon.split(',')[1]!, 'base64')).metadata()).toMatchObject({ format: 'png', width: 64, height: 64 });

  // Staff offer an older version for the game's definition in the back office.
  const versionCard = page.getByTestId('version-card');
  await expect(versionCard).toContainText('Le serveur tourne sous Minecraft 1.21.4.');
  await expect(versionCard).toContainText('Ce jeu ne propose pas d’autre version pour l’instant.');
  const gameId = gamePath.split('/').pop()!;
  const { definitionId } = (await (await page.request.get(`/v1/game/${gameId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { definitionId: string };
  const staff = await (await browser.newContext()).newPage();
  await signIn(staff, accounts.staff, `/dashboard/staff/definitions/edit/${definitionId}`);
  await staff.getByLabel('Autres versions proposées').fill('1.21.1');
  await staff.getByRole('option', { name: '1.21.1', exact: true }).click();
  await staff.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(staff).toHaveURL(/\/dashboard\/staff\/definitions\/show\/[0-9a-f-]{36}$/);
  await staff.context().close();

  // The player goes back to it: the card says what will happen, and an older version needs an explicit yes.
  await page.reload();
  await pickOption(versionCard.getByLabel('Version'), '1.21.1', { exact: true });
  const plan = versionCard.getByTestId('version-plan');
  await expect(plan).toContainText('Une sauvegarde automatique du monde est faite d’abord');
  await expect(plan).toContainText('Le serveur redémarre ensuite sous Minecraft 1.21.1');
  await expect(plan).toContainText('1.21.1 est plus ancienne que 1.21.4');
  const change = versionCard.getByRole('button', { name: 'Changer de version' });
  await expect(change).toBeDisabled();
  await versionCard.getByRole('checkbox', { name: 'J’ai compris, revenir à la version plus ancienne' }).check();
  await change.click();
  await page.getByRole('dialog').getByRole('button', { name: 'Changer de version' }).click();
  await expect(versionCard.getByRole('alert')).toHaveText('Le serveur est maintenant sous Minecraft 1.21.1 et redémarre.', { timeout: 60_000 });
  await expect(versionCard.getByTestId('version-plan')).toHaveCount(0);
  await expect(status).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  await expect(page.getByText('Minecraft 1.21.1 ·')).toBeVisible();
  // The backup was taken first, kept with the others.
  const backups = (await (await page.request.get(`/v1/game/${gameId}/backups`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: Array<{ kind: string; status: string }> };
  expect(backups.data).toEqual([expect.objectContaining({ kind: 'AUTOMATIC', status: 'READY' })]);

  for (const lang of ['fr', 'en'] as const) {
    await inEachLook(
      page,
      async () => {
        await page.goto(lang === 'fr' ? `${gamePath}/settings` : `/en${gamePath}/settings`);
        await expect(page.getByTestId('settings-form')).toBeVisible({ timeout: 15_000 });
        // The plan of an upgrade back to 1.21.4, as the player sees it before deciding.
        await pickOption(page.getByTestId('version-card').getByLabel('Version'), '1.21.4', { exact: true });
        await expect(page.getByTestId('version-plan')).toBeVisible();
        // The menu closed, its fading out done: it would show over the form in the shot.
        await expect(page.getByRole('listbox')).toHaveCount(0);
        // The pointer off the fields, so none shows its hover border.
        await page.mouse.move(0, 0);
      },
      async ({ theme, label }) => {
        // A probe missed under load shows the server starting for a moment: the shot and the contrast
        // check wait for it running, lest the check catch its chip between two colours.
        await expect(status).toHaveAttribute('data-status', 'RUNNING', { timeout: 30_000 });
        await transitionsEnded(page);
        await page.evaluate(() => window.scrollTo(0, 0));
        await shoot(page, { path: `${SHOTS}/settings-${lang}-${label}-${theme}.png`, fullPage: true });
        if (label === 'desktop') expect(await seriousViolations(page, { theme })).toEqual([]);
      },
      desktopChecks,
    );
  }
});

test('an owner chooses when an empty server sleeps, or that it never does', async ({ browser }) => {
  test.setTimeout(120_000);
  const { page } = await buyServerInStore(browser, `sleeper_${run}`, 'Monde qui dort');
  await openTab(page, 'Réglages');
  const form = page.getByTestId('settings-form');
  const sleep = form.getByRole('combobox', { name: 'Mise en veille sans joueur' });
  // On by default, after ten minutes.
  await expect(sleep).toHaveText('Après 10 minutes');
  await pickOption(sleep, 'Après 30 minutes');
  await form.getByRole('button', { name: 'Appliquer', exact: true }).click();
  // The platform's own setting: applied at once, running or not, no restart.
  await expect(form.getByTestId('settings-outcome')).toHaveText('Appliqué maintenant : Mise en veille sans joueur.');
  await page.reload();
  await expect(page.getByTestId('settings-form').getByRole('combobox', { name: 'Mise en veille sans joueur' })).toHaveText('Après 30 minutes');

  await pickOption(page.getByTestId('settings-form').getByRole('combobox', { name: 'Mise en veille sans joueur' }), 'Jamais');
  await page.getByTestId('settings-form').getByRole('button', { name: 'Appliquer', exact: true }).click();
  await expect(page.getByTestId('settings-outcome')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('settings-form').getByRole('combobox', { name: 'Mise en veille sans joueur' })).toHaveText('Jamais');
});

test('a sleeping server’s page says so, since when, that a player joining wakes it and at which address, in French and in English', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(180_000);
  const { page, gamePath } = await buyServerInStore(browser, `dozer_${run}`, 'Monde endormi');
  await page.getByRole('button', { name: 'Démarrer', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Démarrer', exact: true }).click();
  await expect(page.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  const named = (await page.getByTestId('game-address').textContent())!;

  // A server falls asleep after 5 minutes at least with nobody on it (tests/real/sleep-real.test.ts
  // sees it happen): here the page reads its game and the game's status as the API answers them
  // for a sleeping game, its address by name (joining it wakes it) and no port of its own.
  const since = '2025-03-14T09:30:00.000Z';
  const gameId = gamePath.split('/').pop()!;
  for (const url of [`**/v1/game/${gameId}`, `**/v1/game/${gameId}/status`]) {
    await page.route(url, async (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      const response = await route.fetch();
      const { directAddress: _, ...read } = (await response.json()) as Record<string, unknown>;
      const asleep = 'desiredState' in read ? { desiredState: 'running', statusReason: null, statusChangedAt: since } : { playersOnline: 0 };
      return route.fulfill({ response, json: { ...read, ...asleep, status: 'SLEEPING' } });
    });
  }
  await page.reload();
  const chip = page.getByTestId('game-status').first();
  await expect(chip).toHaveAttribute('data-status', 'SLEEPING');
  await expect(chip).toHaveText('En veille');
  await expect(page.getByTestId('game-sleeping')).toHaveText(/^En veille depuis le .*2025.*, sans joueur : il se réveille quand un joueur le rejoint\.$/);
  await expect(page.getByTestId('game-address')).toHaveText(named);
  await expect(page.getByTestId('game-direct-address')).toHaveCount(0);
  // The owner may still start it by hand.
  await expect(page.getByRole('button', { name: 'Démarrer', exact: true })).toBeEnabled();
  await shotsInEachLook(page, SHOTS, 'sleeping-fr', () => expect(page.getByTestId('game-sleeping')).toBeVisible());

  await page.goto(`/en${gamePath}`);
  await expect(chip).toHaveText('Sleeping');
  await expect(page.getByTestId('game-sleeping')).toHaveText(/^Sleeping since .*2025.*, with nobody on it: it wakes when a player joins\.$/);
  await expect(page.getByTestId('game-address')).toHaveText(named);
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
  await shotsInEachLook(page, SHOTS, 'sleeping-en', () => expect(page.getByTestId('game-sleeping')).toBeVisible());
});
