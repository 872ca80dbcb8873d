import type { APIRequestContext, Page } from '@playwright/test';
import { playDuel } from '../fixtures/minecraft.ts';
import { accessToken, accounts, apiAs, expect, mintToken, pickOption, shotsInEachLook, signedIn, signUp, staffApi, takingLooks, test } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/tournaments';

const SLUG = 'coupe-e2e';
const FEE = 20;
const PRIZE = 500;

/** `datetime-local`'s value, in the browser's (the machine's) time zone, `minutes` from now. */
const local = (minutes: number) => {
  const d = new Date(Date.now() + minutes * 60_000);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** A player of the API only: linked to a Minecraft name and given credits by staff; their token, id and Minecraft name. */
async function apiPlayer(request: APIRequestContext, name: string) {
  const token = await mintToken(name);
  const api = apiAs(request, token);
  const id = (await (await api.get('/v1/user')).json()).id as string;
  expect((await api.post('/v1/user/mcuuid', { mcName: `${name}MC` })).ok()).toBe(true);
  expect((await (await staffApi(request)).post('/v1/user/credit', { userId: id, amount: 100, reason: 'Tournoi e2e' })).ok()).toBe(true);
  return { token, id, api, mcName: `${name}MC` };
}

const balance = async (request: APIRequestContext, token: string) => (await (await apiAs(request, token).get('/v1/user')).json()).balance as number;

async function bracket(request: APIRequestContext) {
  return (await (await request.get(`/v1/tournaments/${SLUG}`)).json()) as {
    id: string;
    status: string;
    bracket: Array<{ id: number; round: number; status: string; sides: Array<{ player: { id: string } | null }> }>;
  };
}

type Player = { id: string; token: string; mcName: string };

/** Where `player`'s tournament match is played, once its server runs (the match LIVE), as the API tells them. */
async function matchAddress(request: APIRequestContext, player: Player): Promise<string> {
  let address: string | null = null;
  await expect
    .poll(
      async () => {
        const { match } = (await (await apiAs(request, player.token).get('/v1/ranked/me')).json()) as { match: { status: string; address: string | null } | null };
        address = match?.status === 'LIVE' ? match.address : null;
        return address;
      },
      { timeout: 120_000, message: `${player.mcName}'s match server running` },
    )
    .toMatch(/:\d+$/);
  return address!;
}

/**
 * Plays the bracket's running matches of `round` with bots, all at once: each joins the match
 * server the API gives its players, and the first side kills the other 3 times. Answers the winners.
 */
async function playRound(request: APIRequestContext, players: Player[], round: number): Promise<Player[]> {
  const byId = new Map(players.map((p) => [p.id, p]));
  const matches = (await bracket(request)).bracket.filter((m) => m.round === round && m.sides.every((s) => s.player));
  expect(matches.length, `the matches of round ${round}`).toBeGreaterThan(0);
  return Promise.all(
    matches.map(async (m) => {
      const [winner, loser] = m.sides.map((s) => byId.get(s.player!.id)!) as [Player, Player];
      await playDuel(await matchAddress(request, winner), winner.mcName, loser.mcName, 3);
      return winner;
    }),
  );
}

test(
  'staff make a 4-player tournament with a fee and a prize; players register and check in; bots play its matches on their servers and the bracket moves on an open page; the winner is paid once',
  { tag: '@game-server' },
  async ({ browser, request }) => {
    test.setTimeout(300_000);
    // Staff make it in the back office: registration and check-in open now, the start in an hour.
    const staff = await signedIn(browser, accounts.staff, '/dashboard/staff/tournaments/create');
    await staff.getByLabel('Nom (français)').fill('Coupe e2e');
    await staff.getByLabel('Nom (anglais)').fill('E2E cup');
    await staff.getByLabel('Règlement (français)').fill('Premier à 3 éliminations.');
    await staff.getByLabel('Règlement (anglais)').fill('First to 3 kills.');
    await staff.getByLabel('Adresse').fill(SLUG);
    await pickOption(staff.getByRole('combobox', { name: 'Mode classé' }), 'Duel 1.8.8');
    await staff.getByLabel('Joueurs au plus').fill('4');
    for (const [label, minutes] of [
      ['Ouverture des inscriptions', -10],
      ['Clôture des inscriptions', 60],
      ['Ouverture du check-in', -10],
      ['Clôture du check-in', 60],
      ['Début', 60],
    ] as const) {
      await staff.getByLabel(label, { exact: true }).fill(local(minutes));
    }
    await staff.getByLabel('Prix d’inscription').fill(String(FEE));
    await staff.getByLabel('Prix du 1er').fill(String(PRIZE));
    await staff.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(staff.getByRole('heading', { name: 'Coupe e2e' })).toBeVisible();
    // The back office shows the entrants as the public page does: nobody yet, said in words.
    await expect(staff.getByText('Personne ne s’est encore inscrit.')).toBeVisible();
    await staff.close();

    // One player in the browser: registers (the fee asked first), withdraws (refunded), registers again, checks in.
    const player = await signUp(browser, 'tournoia', `/dashboard/ranked/${SLUG}`);
    const token = await accessToken(player);
    const me = apiAs(request, token);
    const myId = (await (await me.get('/v1/user')).json()).id as string;
    expect((await me.post('/v1/user/mcuuid', { mcName: 'TournoiA' })).ok()).toBe(true);
    expect((await (await staffApi(request)).post('/v1/user/credit', { userId: myId, amount: 100, reason: 'Tournoi e2e' })).ok()).toBe(true);
    await player.reload();
    await player.getByRole('button', { name: `S’inscrire (${FEE} crédits)` }).click();
    await player.getByRole('dialog').getByRole('button', { name: 'S’inscrire' }).click();
    await expect(player.getByTestId('tournament-my-status')).toHaveText('Vous êtes inscrit : faites votre check-in dès son ouverture.');
    expect(await balance(request, token)).toBe(100 - FEE);
    await player.getByRole('button', { name: 'Se désinscrire' }).click();
    await player.getByRole('dialog').getByRole('button', { name: 'Se désinscrire' }).click();
    await expect(player.getByTestId('tournament-my-status')).toHaveText('Vous n’êtes pas inscrit.');
    expect(await balance(request, token)).toBe(100);
    await player.getByRole('button', { name: `S’inscrire (${FEE} crédits)` }).click();
    await player.getByRole('dialog').getByRole('button', { name: 'S’inscrire' }).click();
    await player.getByRole('button', { name: 'Confirmer ma présence' }).click();
    await expect(player.getByTestId('tournament-my-status')).toHaveText('Votre présence est confirmée : votre premier match arrive au début du tournoi.');

    // A fifth registers and withdraws through the API, and gets the fee back; three others register and check in.
    const fifth = await apiPlayer(request, 'tournoie');
    expect((await fifth.api.post(`/v1/tournaments/${SLUG}/registration`, {})).status()).toBe(201);
    expect(await balance(request, fifth.token)).toBe(100 - FEE);
    expect((await request.delete(`/v1/tournaments/${SLUG}/registration`, { headers: { authorization: `Bearer ${fifth.token}` } })).status()).toBe(204);
    expect(await balance(request, fifth.token)).toBe(100);
    const others = [await apiPlayer(request, 'tournoib'), await apiPlayer(request, 'tournoic'), await apiPlayer(request, 'tournoid')];
    for (const o of others) {
      expect((await o.api.post(`/v1/tournaments/${SLUG}/registration`, {})).status()).toBe(201);
      expect((await o.api.post(`/v1/tournaments/${SLUG}/check-in`, {})).status()).toBe(200);
    }
    // The open page heard each of them on its stream, without a reload.
    await expect(player.getByTestId('tournament-entrants').getByRole('row')).toHaveCount(5);
    // From here the public page follows the tournament, as a visitor's open tab.
    await player.context().close();
    const page = await browser.newPage();
    await page.goto(`/ranked/${SLUG}`);
    await expect(page.getByTestId('tournament-status')).toHaveText('À venir');

    // Staff move the start to now: the next round seeds the bracket, which appears on the open page.
    const { id } = await bracket(request);
    const soon = new Date(Date.now() + 1_000).toISOString();
    const moved = await request.put(`/v1/staff/tournaments/${id}`, {
      headers: { authorization: `Bearer ${await mintToken('staff', ['staff', 'support'])}` },
      data: { registrationClosesAt: soon, checkInClosesAt: soon, startsAt: soon },
    });
    expect(moved.ok(), await moved.text()).toBe(true);
    const matches = page.getByTestId('bracket-match');
    const withStatus = (status: string) => page.locator(`[data-testid="bracket-match"][data-status="${status}"]`);
    await expect(matches).toHaveCount(3, { timeout: 20_000 });
    await expect(page.getByTestId('tournament-status')).toHaveText('En cours');
    await expect(withStatus('RUNNING')).toHaveCount(2);
    // The public page with its live bracket, in each look and both languages: pictures, only with LOOKS=1.
    if (takingLooks) {
      const visitor = await browser.newPage();
      // The looks set the theme in the site's storage: the page on the site first.
      await visitor.goto('/ranked');
      for (const [name, path] of [
        ['live', `/ranked/${SLUG}`],
        ['live-en', `/en/ranked/${SLUG}`],
      ] as const) {
        await shotsInEachLook(visitor, SHOTS, name, async () => {
          await visitor.goto(path);
          await expect(visitor.locator('[data-testid="bracket-match"][data-status="RUNNING"]')).toHaveCount(2);
        });
      }
      await visitor.close();
    }

    // Bots play both semifinals at once on their match servers, first to 3 kills; the servers'
    // console lines decide them, and the open page shows each result and then the final.
    const players: Player[] = [{ id: myId, token, mcName: 'TournoiA' }, ...others];
    const balances = new Map<string, number>();
    for (const p of players) balances.set(p.id, await balance(request, p.token));
    const finalists = await playRound(request, players, 1);
    await expect(withStatus('COMPLETED')).toHaveCount(2, { timeout: 30_000 });
    await expect(withStatus('RUNNING')).toHaveCount(1);
    for (const finalist of finalists) await expect(withStatus('COMPLETED').locator('[data-result="win"]').filter({ hasText: finalist.mcName })).toContainText('3');
    const [winner] = await playRound(request, players, 2);
    await expect(page.getByTestId('tournament-status')).toHaveText('Terminé', { timeout: 30_000 });
    await expect(withStatus('COMPLETED')).toHaveCount(3);
    await expect(page.getByTestId('tournament-results')).toContainText(`1. ${winner!.mcName}`);
    // Every match was played: the bracket marks no forfeit.
    await expect(page.getByTestId('bracket').getByText('Forfait')).toHaveCount(0);

    // The winner got the prize, once; nobody else was paid (no prize for the others' places).
    await expect.poll(() => balance(request, winner!.token), { timeout: 10_000 }).toBe(balances.get(winner!.id)! + PRIZE);
    for (const p of players.filter((p) => p !== winner)) expect(await balance(request, p.token)).toBe(balances.get(p.id));
    const lines = (await (await apiAs(request, winner!.token).get('/v1/purchase/transactions?size=50')).json()).data as Array<{ kind: string }>;
    expect(lines.filter((l) => l.kind === 'TOURNAMENT_PRIZE')).toHaveLength(1);
    await checkOnPhone(page);
  },
);

/** The finished tournament's page fits a phone. */
async function checkOnPhone(page: Page) {
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByTestId('bracket')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

test('a visitor reads the tournaments on /ranked and the past one’s winner on its page, at its old address', async ({ page }) => {
  // The home page's teaser leads to the next tournaments, in the page's language.
  await page.goto('/en');
  const teaser = page.getByTestId('teaser-tournament').filter({ hasText: 'Winter Cup 2026' });
  await expect(teaser).toContainText('Upcoming');
  await expect(teaser).toContainText('Single elimination');
  await teaser.click();
  await expect(page).toHaveURL(/\/en\/ranked\/coupe-hiver-2026$/);
  await page.goto('/ranked');
  await expect(page.getByTestId('tournaments-upcoming').getByTestId('tournament-card').first()).toBeVisible();
  await expect(page.getByTestId('tournaments-past')).toContainText('Vainqueur : Notch_Fan_88');
  await page.goto('/ranked/skywars-automne-2026');
  await expect(page.getByTestId('tournament-results')).toContainText('1. Notch_Fan_88');
  await expect(page.getByTestId('bracket-match')).toHaveCount(3);
  await page.goto('/en/ranked/coupe-hiver-2026');
  await expect(page.getByRole('heading', { level: 1, name: 'Winter Cup 2026' })).toBeVisible();
});
