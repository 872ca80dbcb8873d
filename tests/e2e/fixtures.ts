import { AxeBuilder } from '@axe-core/playwright';
import { expect, test as base, type APIRequestContext, type Browser, type Page, type Request } from '@playwright/test';
import { loadConfig } from '../../src/server/config.ts';
import { loadOrCreateKeys } from '../../src/server/identity/keys.ts';
import { signAccessToken } from '../../src/server/identity/tokens.ts';
import { baseURL, dataDir, port } from '../../playwright.config.ts';

/** The seeded accounts (README). */
export const accounts = {
  alice: { login: 'alice', password: 'Creeper-2026!' },
  staff: { login: 'staff', password: 'Blocks-Admin-2026' },
  support: { login: 'support', password: 'Blocks-Helpdesk-2026' },
} as const;

// The test server's settings and identity keys (playwright.config.ts starts it on this data folder).
const serverConfig = loadConfig({ PORT: String(port), PUBLIC_URL: baseURL, DATA_DIR: dataDir(port) });

/**
 * An access token the test server accepts, signed with its own keys as the token CLI does
 * (README): the quick way to make many players, each created by its first call.
 */
export async function mintToken(user: string, roles: string[] = []): Promise<string> {
  return signAccessToken(serverConfig, await loadOrCreateKeys(serverConfig.oidc.keysFile), { username: user, roles });
}

/** The API as one token's holder. */
export function apiAs(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  return {
    get: (url: string) => request.get(url, { headers }),
    post: (url: string, data: object) => request.post(url, { headers, data }),
    patch: (url: string, data: object) => request.patch(url, { headers, data }),
  };
}

/** Fills the embedded provider's sign-in page (French) and submits it. */
export async function fillSignIn(page: Page, account: { login: string; password: string }) {
  await expect(page).toHaveURL(/\/oidc\/interaction\//);
  await page.getByLabel("Nom d'utilisateur ou e-mail").fill(account.login);
  await page.getByLabel('Mot de passe').fill(account.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

/** Signs in through the real sign-in page, starting from a dashboard page, and waits to land on it. */
export async function signIn(page: Page, account: { login: string; password: string } = accounts.alice, from = '/dashboard') {
  await page.goto(from);
  await fillSignIn(page, account);
  await expect(page).toHaveURL(new RegExp(`${from.replace(/[/]/g, '\\/')}$`));
}

/** A new player, signed up through the embedded provider's sign-up page in a context of its own; lands on /dashboard. */
export async function signUp(browser: Browser, name: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/oidc\/interaction\//);
  await page.getByRole('link', { name: 'Inscription', exact: true }).first().click();
  await page.getByLabel("Nom d'utilisateur").fill(name);
  await page.getByLabel('Adresse e-mail').fill(`${name}@example.com`);
  await page.getByLabel('Mot de passe').fill('Nether-portal-42');
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return page;
}

/**
 * The seeded staff user's API access: a token signed with the server's keys, as the token CLI makes
 * one. Staff's own sign-in is tested where the back office is; here a browser context and a sign-in
 * page for each credit given would only cost time.
 */
export async function staffApi(request: APIRequestContext) {
  return apiAs(request, await mintToken('staff', ['staff', 'support']));
}

/** The access token of the page's session, as oidc-client-ts stored it. */
export async function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:'));
    return (JSON.parse(localStorage.getItem(key!)!) as { access_token: string }).access_token;
  });
}

/**
 * A new player given 200 credits by staff, who bought a "Survie" server named `name` from the
 * store: on its page, with their token and the page's path.
 */
export async function buyServerInStore(browser: Browser, player: string, name: string): Promise<{ page: Page; token: string; gamePath: string }> {
  const page = await signUp(browser, player);
  const token = await accessToken(page);
  const me = (await (await page.request.get('/v1/user', { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string };
  const staff = await staffApi(page.request);
  expect((await staff.post('/v1/user/credit', { userId: me.id, amount: 200, reason: 'Browser test credits' })).status()).toBe(200);
  await page.goto('/dashboard/store');
  await page.getByTestId('game-card').filter({ hasText: 'Survie' }).click();
  await page.getByTestId('create-cta').click();
  await page.getByLabel('Nom du serveur').fill(name);
  await page.getByRole('button', { name: /^Payer .* et créer$/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/game\/[0-9a-f-]{36}$/);
  return { page, token, gamePath: new URL(page.url()).pathname };
}

/** A tab of the game page, opened as a player does, at its own address. */
export async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** How a person looks at a page: one theme, at a desktop or a phone width. */
export interface Look {
  theme: 'light' | 'dark';
  label: 'desktop' | 'phone';
  width: number;
}

/**
 * Runs `shoot` in each look: the light then the dark theme, each at 1280 then 375 px. `open` loads the
 * page and waits for it once, in the light theme; the theme then changes in place through the
 * header's toggle, as a player switches it, and the width by resizing the window. A look costs a
 * screenshot, not a page load: loading every page four times was most of the browser tests' time.
 * `shoot` must leave the page where it is. Leaves the page light, at 1280 px.
 */
export async function inEachLook(page: Page, open: () => Promise<unknown>, shoot: (look: Look) => Promise<unknown>) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate(() => localStorage.setItem('preferredTheme', 'light'));
  await open();
  for (const theme of ['light', 'dark'] as const) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await switchTheme(page, theme);
    for (const [label, width] of [
      ['desktop', 1280],
      ['phone', 375],
    ] as const) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      // The new width's layout: media queries answer at once, measured parts (a grid) a frame later.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await transitionsEnded(page);
      await shoot({ theme, label, width });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await switchTheme(page, 'light');
}

/** Full-page shots, for a person to look at, of the page `open` makes ready, in each look: `dir/name-label-theme.png`. */
export function shotsInEachLook(page: Page, dir: string, name: string, open: () => Promise<unknown>) {
  return inEachLook(page, open, ({ theme, label }) => page.screenshot({ path: `${dir}/${name}-${label}-${theme}.png`, fullPage: true }));
}

/** Switches the page's theme with the header's toggle, if it is not on already, and waits for its colours to settle. */
export async function switchTheme(page: Page, theme: 'light' | 'dark') {
  if ((await page.evaluate(() => document.documentElement.dataset.theme ?? 'light')) !== theme) {
    await page.getByTestId('theme-toggle').click();
    // The pointer off the toggle, so the shots do not show it hovered.
    await page.mouse.move(0, 0);
  }
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  // Buttons and chips ease into their new colours: a contrast check mid-way would read neither.
  await transitionsEnded(page);
}

/**
 * The serious and critical accessibility violations axe finds in the page (or in `include`), one line
 * each. In the dark theme only the rules that read colours run: the rest read the same page as in
 * the light one.
 */
export async function seriousViolations(page: Page, { theme = 'light', include }: { theme?: 'light' | 'dark'; include?: string } = {}): Promise<string[]> {
  let axe = new AxeBuilder({ page });
  if (include) axe = axe.include(include);
  if (theme === 'dark') axe = axe.withRules(['color-contrast', 'link-in-text-block']);
  const { violations } = await axe.analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${theme} ${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(', ')}`);
}

/** Picks the theme before the page's own scripts run, as a returning visitor's saved choice. */
export async function useTheme(page: Page, mode: 'light' | 'dark') {
  await page.addInitScript((m) => localStorage.setItem('preferredTheme', m), mode);
}

/**
 * Follows the scripts a page asks for from now on. `settled()` waits until the page is idle and each
 * of them has arrived: signed in, the notification stream keeps the network busy, so the network
 * never goes idle, and lazy chunks are asked for by the code that runs after a render.
 */
export function followScripts(page: Page) {
  const pending = new Set<Request>();
  page.on('request', (r) => {
    if (r.resourceType() === 'script') pending.add(r);
  });
  const done = (r: Request) => pending.delete(r);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    settled: async () => {
      await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => resolve(null))));
      await expect.poll(() => pending.size).toBe(0);
    },
  };
}

/** Waits for the page's CSS transitions and finite animations to end (a drawer sliding in); endless ones (a spinner) are left running. */
export async function transitionsEnded(page: Page) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => null)),
    ),
  );
}

/**
 * The worker's browser is shared by its tests, and the contexts a test opens on it (`signUp`,
 * `buyServerInStore`, a second player…) would outlive the test: their pages kept their event streams and
 * re-rendered on every live change, so a late test shared the CPU with every earlier test's pages.
 * Each test's contexts are closed when it ends.
 */
export const test = base.extend<{ ownContexts: void }>({
  ownContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close()),
      );
    },
    { auto: true },
  ],
});
export { expect };
