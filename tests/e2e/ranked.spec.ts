import type { Page } from '@playwright/test';
import { playDuel } from '../fixtures/minecraft.ts';
import { accessToken, apiAs, expect, seriousViolations, shotsInEachLook, signUp, switchTheme, takingLooks, test } from './fixtures.ts';

const SHOTS = 'test-results/ranked';

/** Links a Minecraft account through the API (the profile page's own form has its tests in social.spec.ts). */
async function link(page: Page, mcName: string) {
  const res = await apiAs(page.request, await accessToken(page)).post('/v1/user/mcuuid', { mcName });
  expect(res.ok()).toBe(true);
}

test(
  'two players queue for Duel 1.8.8, are paired by a matchmaking round, see the match live, play it, and see their rating chart and the match after',
  { tag: '@game-server' },
  async ({ browser }) => {
    test.setTimeout(360_000);
    const first = await signUp(browser, 'duelista', '/dashboard/ranked');
    const second = await signUp(browser, 'duelistb', '/dashboard/ranked');

    // Without a linked account the page says why and offers no queue.
    await expect(first.getByText('Liez votre compte Minecraft pour jouer en classé')).toBeVisible();
    await expect(first.getByRole('button', { name: 'Rejoindre la file' })).toBeDisabled();
    await expect(first.getByTestId('ranked-ratings')).toContainText('Pas encore de classement');

    await link(first, 'DuelistA');
    await link(second, 'DuelistB');
    for (const page of [first, second]) await page.reload();

    // The first waits alone, with the mode's rules and a running clock.
    await expect(first.getByRole('combobox', { name: 'Mode' })).toHaveText('Duel 1.8.8');
    await expect(first.getByTestId('ranked-queue')).toContainText('Premier à 3 éliminations · 10 min au plus');
    await first.getByRole('button', { name: 'Rejoindre la file' }).click();
    await expect(first.getByTestId('ranked-waiting')).toHaveText('Recherche d’un adversaire en Duel 1.8.8…');
    await expect(first.getByText(/En attente depuis 0:0[1-9]/)).toBeVisible();
    // The other sees someone waiting once their page hears of it (at the latest on its next read).
    await second.reload();
    await expect(second.getByTestId('ranked-queue')).toContainText('1 joueur en attente');

    // The second joins; a matchmaking round (every 2 s on the server) pairs them: both pages change
    // without a reload, from the `ranked` change on their event streams.
    await second.getByRole('button', { name: 'Rejoindre la file' }).click();
    await expect(first.getByTestId('ranked-opponent')).toHaveText('Duel 1.8.8 contre DuelistB', { timeout: 30_000 });
    await expect(second.getByTestId('ranked-opponent')).toHaveText('Duel 1.8.8 contre DuelistA', { timeout: 30_000 });
    // The match server (a real flying-squid on the local driver) may already run on a fast machine.
    await expect(first.getByTestId('ranked-match-status')).toHaveText(/Serveur du match en préparation|En cours/);
    await expect(first.getByTestId('ranked-queue')).toHaveCount(0);
    // The bell has the notice, in the page's language.
    await expect(first.getByRole('button', { name: /Notifications, [12] non lues?/ })).toBeVisible();

    // Once its server runs the match is LIVE: both pages show where to join, with a copy button and
    // the time left to join, counting down on the page.
    for (const page of [first, second]) {
      await expect(page.getByTestId('ranked-match-status')).toHaveText('En cours', { timeout: 120_000 });
      await expect(page.getByTestId('ranked-match-address')).toHaveText(/:\d+$/);
      await expect(page.getByRole('button', { name: 'Copier l’adresse' })).toBeVisible();
    }
    const countdown = first.getByTestId('ranked-match-countdown');
    await expect(countdown).toHaveText(/^Rejoignez dans les [01]:\d\d, sinon vous perdez par forfait\.$/);
    const shown = await countdown.textContent();
    await expect(countdown).not.toHaveText(shown!, { timeout: 5_000 });
    await expect(first.getByRole('button', { name: 'Notifications, 2 non lues' })).toBeVisible();

    // Not played yet: the season's history is empty.
    await expect(first.getByTestId('ranked-history')).toContainText('Aucun match cette saison pour l’instant.');

    // Both join at the address shown (by its name through the game gateway) and DuelistA wins 3–0.
    await playDuel((await first.getByTestId('ranked-match-address').textContent())!, 'DuelistA', 'DuelistB', 3);

    // The result reaches both pages without a reload: the queue is back, and the season's card has
    // the rating chart (one match), the totals and the match with its rating change.
    for (const [page, outcome, sign] of [
      [first, 'Victoire', '+'],
      [second, 'Défaite', '−'],
    ] as const) {
      await expect(page.getByTestId('ranked-queue')).toBeVisible({ timeout: 60_000 });
      const history = page.getByTestId('ranked-history');
      await expect(history.getByTestId('ranked-history-match')).toHaveCount(1);
      await expect(history.getByTestId('ranked-history-match')).toContainText(outcome);
      await expect(history.getByTestId('ranked-history-change')).toHaveText(new RegExp(`^\\${sign}\\d+$`));
      await expect(history.getByTestId('ranked-history-chart')).toHaveAttribute('data-points', '1');
      // One match against a new player: the deviation is still high.
      await expect(history.getByTestId('ranked-history-provisional')).toHaveText('provisoire');
    }
    await expect(first.getByTestId('ranked-history-match')).toContainText('contre DuelistB');
    await expect(first.getByTestId('ranked-history-match')).toContainText('3 – 0');
    await expect(first.getByTestId('ranked-history-kills')).toContainText('3');

    // In the queue again, the two now on the leaderboard: readable in both themes and on a phone.
    await first.getByRole('button', { name: 'Rejoindre la file' }).click();
    await expect(first.getByTestId('ranked-waiting')).toBeVisible();
    // The leaderboard is read when the page opens.
    await first.reload();
    await expect(first.getByTestId('leaderboard-row').filter({ hasText: 'DuelistB' })).toBeVisible();
    expect(await seriousViolations(first)).toEqual([]);
    await switchTheme(first, 'dark');
    expect(await seriousViolations(first, { theme: 'dark' })).toEqual([]);
    await first.setViewportSize({ width: 375, height: 800 });
    await expect(first.getByTestId('ranked-history-chart')).toBeVisible();
    expect(await first.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await switchTheme(first, 'light');

    const ready = (page: Page) => expect(page.getByTestId('ranked-history-chart').locator('svg path').first()).toBeVisible();
    await shotsInEachLook(first, SHOTS, 'dashboard-ranked-fr', () => ready(first));
    if (takingLooks) {
      await first.goto('/en/dashboard/ranked');
      await shotsInEachLook(first, SHOTS, 'dashboard-ranked-en', () =>
        expect(first.getByText('Looking for an opponent in Duel 1.8.8…'))
          .toBeVisible()
          .then(() => ready(first)),
      );
      // The public page, as a visitor sees it (a signed-in player is taken to the dashboard's).
      const visitor = await browser.newPage();
      for (const lang of ['fr', 'en'] as const) {
        await visitor.goto(lang === 'fr' ? '/ranked' : '/en/ranked');
        await shotsInEachLook(visitor, SHOTS, `ranked-${lang}`, () => expect(visitor.getByTestId('leaderboard-row').filter({ hasText: 'DuelistA' })).toBeVisible());
      }
    }
  },
);

test('a visitor reads the leaderboards under the competitions on /ranked, on a phone too', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/ranked');
  await expect(page.getByRole('heading', { level: 1, name: 'Compétitions' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Classements' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Duel 1.8.8' })).toBeVisible();
  // Empty, or with the players of a duel another test played.
  await expect(page.getByText('Personne n’a encore joué cette saison.').or(page.getByTestId('leaderboard-row').first())).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.goto('/en/ranked');
  await expect(page.getByRole('heading', { name: 'Leaderboards' })).toBeVisible();
  await expect(page.getByText('Nobody has played this season yet.').or(page.getByTestId('leaderboard-row').first())).toBeVisible();
});
