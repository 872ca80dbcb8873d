import type { Page } from '@playwright/test';
import { Vec3 } from 'vec3';
import { join, quit } from '../fixtures/minecraft.ts';
import { accessToken, apiAs, buyServerInStore, expect, openTab, picturesInEachLook, serverPort, shoot, signUp, test } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/console';
const run = Date.now().toString(36).toUpperCase();

/** The numbers of the server's lines on screen, in order. */
const seqs = async (page: Page) =>
  await page
    .getByTestId('console-lines')
    .locator('[data-seq]')
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-seq'))));

test('a player reads the console live, sees a join in colour, runs commands and finds the same history, commands included, after a reload', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(240_000);
  const player = `console_${run.toLowerCase()}`;
  const { page, gamePath } = await buyServerInStore(browser, player, 'Monde en console');

  // Before its first start, the console says so.
  await openTab(page, 'Console');
  await expect(page).toHaveURL(new RegExp(`${gamePath}/console$`));
  const lines = page.getByTestId('console-lines');
  await expect(lines).toContainText('Ce serveur n’a jamais démarré');
  await expect(page.getByRole('textbox', { name: 'Commande' })).toBeDisabled();

  await openTab(page, 'Aperçu');
  await page.getByRole('button', { name: 'Démarrer', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Démarrer', exact: true }).click();
  await expect(page.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  const port = await serverPort(page);
  await openTab(page, 'Console');
  await expect(lines).toContainText('Starting the server (Minecraft 1.21.4)');

  // A player joins: the line arrives live, yellow, its colour code not shown.
  const name = `Bot${run.slice(-6)}`;
  const result = await join(port, name, '1.21.4');
  if (!result.joined) throw new Error(`${name} could not join: ${result.reason}`);
  const bot = result.bot;
  try {
    const joinLine = lines.locator('[data-seq]').filter({ hasText: `${name} joined the game.` });
    await expect(joinLine).toBeVisible({ timeout: 15_000 });
    await expect(joinLine).not.toContainText('&e');
    await expect(joinLine.locator('span', { hasText: `${name} joined the game.` })).toHaveCSS('color', 'rgb(255, 255, 85)');

    // Commands, through the server's own command system, and their answers.
    const command = page.getByRole('textbox', { name: 'Commande' });
    await command.fill('time set day');
    await command.press('Enter');
    await expect(lines.locator('[data-seq]').filter({ hasText: /Time was changed from \d+ to 1000/ })).toBeVisible();
    await bot.waitForChunksToLoad();
    const at = bot.entity.position.floored().offset(1, 1, 0);
    await command.fill(`setblock ${at.x} ${at.y} ${at.z} stone`);
    await command.press('Enter');
    await expect(lines.locator('[data-command]').filter({ hasText: `> setblock ${at.x} ${at.y} ${at.z} stone` })).toBeVisible();
    await expect.poll(() => bot.blockAt(new Vec3(at.x, at.y, at.z))?.name, { timeout: 15_000 }).toBe('stone');
    // The up arrow brings the last command back.
    await command.press('ArrowUp');
    await expect(command).toHaveValue(`setblock ${at.x} ${at.y} ${at.z} stone`);
    await command.fill('');

    // Reloaded: the history again, each line once, none missing.
    const before = await seqs(page);
    await page.reload();
    await expect(lines.locator('[data-seq]').filter({ hasText: `${name} joined the game.` })).toBeVisible();
    await expect.poll(async () => (await seqs(page)).length).toBeGreaterThanOrEqual(before.length);
    const after = await seqs(page);
    expect(after).toEqual(Array.from({ length: after.length }, (_, i) => after[0]! + i));
    expect(after.slice(0, before.length)).toEqual(before);
    // The commands typed here are part of the history, before their answers.
    const commandLines = lines.locator('[data-command]');
    await expect(commandLines).toHaveText([/> time set day$/, new RegExp(`> setblock ${at.x} ${at.y} ${at.z} stone$`)]);
    await expect(lines.locator('[data-command] + [data-seq]').first()).toContainText(/Time was changed from \d+ to 1000/);

    // A flood: the first lines of a burst arrive, the rest are said by a marker (one per second of
    // the burst the limit cut: a loaded machine spreads the 900 lines over more than one).
    for (let i = 0; i < 900; i++) bot.chat(`flood ${i}`);
    await expect(lines.getByText(/^\d+ lignes omises$/).first()).toBeVisible({ timeout: 15_000 });

    // Copy puts the lines shown, as plain text, on the clipboard; the search narrows them.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('textbox', { name: 'Chercher dans la console' }).fill('joined the game');
    await expect(lines.locator('[data-seq]')).toHaveCount(1);
    await page.getByRole('button', { name: 'Copier les lignes affichées' }).click();
    await expect(page.getByRole('tooltip')).toHaveText('Copié');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`^\\[INFO\\]: ${name} joined the game\\.$`));
    await page.getByRole('textbox', { name: 'Chercher dans la console' }).fill('');

    // How it looks, in both languages, themes and widths.
    for (const lang of ['fr', 'en'] as const) {
      await picturesInEachLook(
        page,
        async () => {
          await page.goto(lang === 'fr' ? `${gamePath}/console` : `/en${gamePath}/console`);
          await expect(lines.locator('[data-seq]').filter({ hasText: `${name} joined the game.` })).toBeVisible();
        },
        async ({ theme, label }) => {
          await page.evaluate(() => window.scrollTo(0, 0));
          await shoot(page, { path: `${SHOTS}/console-${lang}-${label}-${theme}.png`, fullPage: true });
        },
      );
    }
  } finally {
    await quit(bot);
  }
});

test('a moderator’s console refuses to stop the server, says why in their language, and the server keeps running', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(240_000);
  const suffix = run.toLowerCase().slice(-5);
  const { page: owner, token: ownerToken, gamePath } = await buyServerInStore(browser, `owner_${suffix}`, 'Monde modéré');
  // The moderator lives in New Zealand, 13 hours from UTC: the console's times are theirs.
  const moderator = await signUp(browser, `modo_${suffix}`, '/dashboard', 'Pacific/Auckland');
  const asOwner = apiAs(owner.request, ownerToken);
  const asModerator = apiAs(moderator.request, await accessToken(moderator));
  const ownerId = ((await (await asOwner.get('/v1/user')).json()) as { id: string }).id;
  const moderatorId = ((await (await asModerator.get('/v1/user')).json()) as { id: string }).id;
  expect((await asOwner.post('/v1/friend', { userId: moderatorId })).status()).toBe(201);
  expect((await asModerator.post('/v1/friend', { userId: ownerId })).status()).toBe(201);
  const gameId = gamePath.split('/').pop()!;
  expect((await asOwner.post(`/v1/game/${gameId}/access`, { friendId: moderatorId, role: 'MODERATOR' })).status()).toBe(201);
  expect((await asOwner.post(`/v1/game/${gameId}/start`, {})).status()).toBe(200);

  await moderator.goto(`${gamePath}/console`);
  await expect(moderator.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  const lines = moderator.getByTestId('console-lines');
  const command = moderator.getByRole('textbox', { name: 'Commande' });
  await expect(command).toBeEnabled();
  await command.fill('stop');
  await command.press('Enter');
  await expect(lines).toContainText('Votre rôle sur ce serveur ne permet pas la commande « stop » : elle est réservée aux co-admins et au propriétaire');
  // What a moderator may do, the console does.
  const sent = Date.now();
  await command.fill('say bonjour');
  await command.press('Enter');
  const said = lines.locator('[data-command]').filter({ hasText: '> say bonjour' });
  await expect(said).toBeVisible();
  // Its time is Auckland's time of day when it was sent (or the minute after).
  const aucklandMinute = (at: number) => new Intl.DateTimeFormat('fr-FR', { timeZone: 'Pacific/Auckland', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  expect([aucklandMinute(sent), aucklandMinute(sent + 60_000)]).toContain((await said.locator('span').first().textContent())!.slice(0, 5));
  expect(((await (await asOwner.get(`/v1/game/${gameId}`)).json()) as { status: string }).status).toBe('RUNNING');
  await shoot(moderator, { path: `${SHOTS}/console-moderator-refused-fr.png`, fullPage: true });
});
