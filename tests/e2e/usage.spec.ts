import { join, quit } from '../fixtures/minecraft.ts';
import { apiAs, buyServerInStore, expect, openTab, picturesInEachLook, serverPort, shoot, test } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/usage';
const run = Date.now().toString(36).toLowerCase();

// The e2e server samples every USAGE_SAMPLE_INTERVAL_MS (playwright.config.ts), not every minute.
test('the Usage tab draws a running server’s players, CPU and memory, with its start and a backup on the timeline, over 24 hours or 7 days', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(240_000);
  const { page, token, gamePath } = await buyServerInStore(browser, `gauge_${run}`, 'Monde mesuré');
  const api = apiAs(page.request, token);
  const gameId = gamePath.split('/').pop()!;

  // Never started: nothing to draw, and the tab says why.
  await openTab(page, 'Utilisation');
  await expect(page).toHaveURL(new RegExp(`${gamePath}/usage$`));
  await expect(page.getByText('Pas encore d’utilisation')).toBeVisible();

  await openTab(page, 'Aperçu');
  await page.getByRole('button', { name: 'Démarrer', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Démarrer', exact: true }).click();
  await expect(page.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  const port = await serverPort(page);
  const joined = await join(port, 'Gauge_e2e', '1.21.4');
  if (!joined.joined) throw new Error(`the player could not join: ${joined.reason}`);
  const bot = joined.bot;
  try {
    await bot.waitForChunksToLoad();
    // Left open, the tab draws new samples as they are taken: nothing else tells it of them.
    await openTab(page, 'Utilisation');
    const drawn = page.getByRole('figure', { name: 'Processeur et mémoire' });
    const count = async () => Number((await drawn.getAttribute('data-points')) ?? 0);
    await expect(drawn).toBeVisible();
    const first = await count();
    await expect.poll(count, { timeout: 30_000 }).toBeGreaterThanOrEqual(first + 2);
    await openTab(page, 'Aperçu');

    expect((await api.post(`/v1/game/${gameId}/backups`, {})).status()).toBe(202);
    // Samples with the player online, and the backup over.
    await expect
      .poll(
        async () => {
          const usage = (await (await api.get(`/v1/game/${gameId}/usage?window=24h`)).json()) as { points: Array<{ players: number }>; events: Array<{ kind: string; detail: string }> };
          return usage.points.filter((p) => p.players === 1).length >= 6 && usage.events.some((e) => e.kind === 'backup' && e.detail.endsWith('READY'));
        },
        { timeout: 90_000 },
      )
      .toBe(true);

    await page.reload();
    await openTab(page, 'Utilisation');
    const resources = page.getByRole('figure', { name: 'Processeur et mémoire' });
    await expect(resources.locator('.MuiLineElement-root').first()).toBeVisible();
    await expect(resources.getByText('Processeur (% d’un cœur)')).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Joueurs en ligne' })).toBeVisible();
    const events = page.getByRole('list', { name: 'Événements' });
    await expect(events.getByText('Démarré')).toBeVisible();
    await expect(events.getByText('Sauvegarde')).toBeVisible();
    await expect(events.getByText('Manuelle')).toBeVisible();

    // The week: the same samples in ten-sample points.
    await page.getByRole('button', { name: '7 jours' }).click();
    await expect(page.getByRole('button', { name: '7 jours' })).toHaveAttribute('aria-pressed', 'true');
    // A few seconds of samples make one or two points: the two series are drawn, as lines or marks.
    await expect(resources.locator('.MuiLineElement-root')).toHaveCount(2);
    await expect(events.getByText('Démarré')).toBeVisible();

    // The charts draw their lines in an animation, which the suite's browser asks to skip
    // (playwright.config.ts): the shots show the whole lines, as a person sees them once still.
    for (const lang of ['fr', 'en'] as const) {
      await picturesInEachLook(
        page,
        async () => {
          await page.goto(lang === 'fr' ? `${gamePath}/usage` : `/en${gamePath}/usage`);
          const figure = page.getByRole('figure', { name: lang === 'fr' ? 'Processeur et mémoire' : 'CPU and memory' });
          await expect(figure.locator('.MuiLineElement-root').first()).toBeVisible();
        },
        async ({ theme, label }) => {
          await page.evaluate(() => window.scrollTo(0, 0));
          await shoot(page, { path: `${SHOTS}/usage-${lang}-${label}-${theme}.png`, fullPage: true });
        },
      );
    }
  } finally {
    await quit(bot);
    await api.post(`/v1/game/${gameId}/stop`, {});
  }
});
