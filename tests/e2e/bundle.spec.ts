import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, followScripts, signIn, test } from './fixtures.ts';

// What each library leaves in the built code whatever the chunk's name: Stripe's script address,
// Refine's context hook, the data grid's component names.
const markers = { stripe: 'js.stripe.com', refine: 'useRefineContext', dataGrid: 'MuiDataGrid' };
// The back office's own code (its menu) and @refinedev/mui's views (their buttons' class names).
const backOfficeMarkers = { staffMenu: 'staff-menu', refineMui: 'refine-edit-button' };
// The player dashboard's own code (its layout's player name) and oidc-client-ts (a method of its own).
const signedInMarkers = { dashboard: 'user-name', signInClient: '_signinStart' };
// MUI X Charts (the Usage tab's), by a class name of its own.
const chartsMarker = 'MuiChartsAxis';

/**
 * Every script the page asks for from now on, read again through the test's own client: a body
 * the browser dropped on a navigation is still checked.
 */
function recordScripts(page: Page) {
  const urls = new Set<string>();
  page.on('request', (r) => {
    if (r.resourceType() === 'script') urls.add(r.url());
  });
  const { settled } = followScripts(page);
  const all = () => Promise.all([...urls].map(async (url) => ({ url, text: await (await page.request.get(url)).text() })));
  return {
    all,
    settled,
    /** The libraries (or other code, by its markers) found in the scripts asked for so far, and any script from another origin. */
    libraries: async (lookFor: Record<string, string> = markers) => {
      const found = new Set<string>();
      for (const { url, text } of await all()) {
        if (!url.startsWith(new URL(page.url()).origin)) found.add(`foreign script ${url}`);
        for (const [name, marker] of Object.entries(lookFor)) if (text.includes(marker)) found.add(name);
      }
      return [...found];
    },
  };
}

/** The code of every chunk of the build the server serves. */
function builtChunks(): string[] {
  const assets = path.join(process.env.WEB_DIR ?? 'dist/web', 'assets');
  return fs
    .readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => fs.readFileSync(path.join(assets, f), 'utf8'));
}

/** gzip size (level 9, as bench/webBundle.ts measures) of the scripts, in kB. */
async function gzipKb(scripts: Array<{ text: string }>): Promise<number> {
  return scripts.reduce((sum, s) => sum + zlib.gzipSync(Buffer.from(s.text), { level: 9 }).length, 0) / 1024;
}

test('the public pages do not download the dashboard, the sign-in client or a payment script', async ({ page }) => {
  const scripts = recordScripts(page);
  for (const path of ['/', '/about', '/store', '/credits']) {
    await page.goto(path);
    await expect(page.locator('main h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect((await scripts.all()).length).toBeGreaterThan(0);
  expect(await scripts.libraries({ ...markers, ...signedInMarkers })).toEqual([]);
  // The markers are in the build: their absence above means something.
  const chunks = builtChunks();
  for (const marker of Object.values(signedInMarkers))
    expect(
      chunks.some((code) => code.includes(marker)),
      marker,
    ).toBe(true);
});

// 170 kB until the header gained the friends and profile entries and MUI's words in the page's
// language (170.2 kB measured); 171.04 kB once the shell learned the ranked pages' routes, the
// loaders of the new language files and the deleted account's word on the home page (each a few
// hundred bytes, none worth a chunk of its own): 172; 178.1 kB once the home page's competitions
// became tournaments read from the API (their card, MUI's Card, Chip and Skeleton, and the ranked
// strings, about 6 kB): 179; back to 172 once the teaser had a light card of its own and its few
// strings in the site's namespace.
const SIGNED_IN_HOME_KB = 172;

test('/credits stays under 200 kB of gzip JavaScript before the card step, for a visitor and for a signed-in player, and / signed in within its budget; the sandbox card step loads no Stripe', async ({
  page: visitor,
}) => {
  // A visitor's first load of /credits.
  const visitorScripts = recordScripts(visitor);
  await visitor.goto('/credits');
  await expect(visitor.getByTestId('credit-pack').first()).toBeVisible();
  await visitor.waitForLoadState('networkidle');
  const visiting = await gzipKb(await visitorScripts.all());
  expect(await visitorScripts.libraries()).toEqual([]);

  // A signed-in player opening / and /credits in new tabs (the signed-in header comes with the shell;
  // the sign-in client and the menus' popups wait until they are needed), then the card step.
  await signIn(visitor);
  const homeTab = await visitor.context().newPage();
  const homeScripts = recordScripts(homeTab);
  await homeTab.goto('/');
  await expect(homeTab.getByTestId('credit-button')).toBeVisible();
  await homeScripts.settled();
  const home = await gzipKb(await homeScripts.all());
  const page = await visitor.context().newPage();
  const scripts = recordScripts(page);
  await page.goto('/credits');
  await expect(page.getByTestId('credit-pack').first().getByRole('button')).toBeVisible();
  await scripts.settled();
  const before = await gzipKb(await scripts.all());
  expect(await scripts.libraries()).toEqual([]);
  await page.getByTestId('credit-pack').first().getByRole('button').click();
  await page.getByTestId('credits-continue').click();
  await expect(page.getByTestId('sandbox-form')).toBeVisible();
  await scripts.settled();
  const after = await gzipKb(await scripts.all());
  expect(await scripts.libraries()).toEqual([]);
  const weights = `visitor ${visiting.toFixed(1)} kB; signed in ${before.toFixed(1)} kB before the card step (/ is ${home.toFixed(1)} kB), ${after.toFixed(1)} kB with the sandbox card step`;
  test.info().annotations.push({ type: 'gzip JS of /credits', description: weights });
  console.log(`/credits gzip JS: ${weights}`);
  expect(visiting).toBeLessThan(200);
  expect(before).toBeLessThanOrEqual(200);
  // Signed in, / weighs what a visitor's does, give or take the header's actions (it was 176 kB with
  // MUI's Badge and Avatar, both languages' strings and a stream parser library).
  expect(home).toBeLessThanOrEqual(SIGNED_IN_HOME_KB);
  // Signed in, the shell's own weight comes on top: /credits itself may add little to it.
  expect(before - home).toBeLessThan(20);
});

// A player's /dashboard downloads its home's code only: each other page is a chunk of its own
// (it weighed 518 kB of gzip JavaScript when every page came with it).
const PLAYER_DASHBOARD_KB = 300;

test("a player's /dashboard downloads no back-office code, no data grid and no charts, and stays within 300 kB; the account page brings the grid", async ({ page }) => {
  await signIn(page);
  const tab = await page.context().newPage();
  const scripts = recordScripts(tab);
  await tab.goto('/dashboard');
  await expect(tab.getByTestId('user-name')).toBeVisible();
  await scripts.settled();
  const all = await scripts.all();
  const weight = await gzipKb(all);
  console.log(`player /dashboard gzip JS: ${weight.toFixed(1)} kB`);
  test.info().annotations.push({ type: "gzip JS of a player's /dashboard", description: `${weight.toFixed(1)} kB` });
  const backOffice = all.filter(({ text }) => Object.values(backOfficeMarkers).some((m) => text.includes(m))).map(({ url }) => url);
  expect(backOffice).toEqual([]);
  expect(await scripts.libraries({ dataGrid: markers.dataGrid, charts: chartsMarker })).toEqual([]);
  expect(weight).toBeLessThanOrEqual(PLAYER_DASHBOARD_KB);
  // The account page, which lists the ledger in a grid, fetches it when it opens.
  await tab.goto('/dashboard/account');
  await expect(tab.getByTestId('account-balance')).toBeVisible();
  await scripts.settled();
  expect(await scripts.libraries({ dataGrid: markers.dataGrid })).toEqual(['dataGrid']);
  // The markers are in the build, in the back office's chunk: their absence above means something.
  const chunks = builtChunks();
  for (const marker of Object.values(backOfficeMarkers))
    expect(
      chunks.some((code) => code.includes(marker)),
      marker,
    ).toBe(true);
});
