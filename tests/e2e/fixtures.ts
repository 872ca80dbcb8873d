import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test as base, type APIRequestContext, type APIResponse, type Browser, type Locator, type Page, type Request } from '@playwright/test';
import { loadConfig } from '../../src/server/config.ts';
import { loadOrCreateKeys } from '../../src/server/identity/keys.ts';
import { signAccessToken } from '../../src/server/identity/tokens.ts';
import { baseURL, dataDir, port } from '../../playwright.config.ts';

/** The seeded accounts (README). */
export const accounts = {
  alice: { login: 'alice', password: 'Creeper-2026!' },
  bob: { login: 'bob', password: 'Diamond-2026!' },
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

/**
 * The API as one token's holder. Each call on a connection of its own (`connection: close`): a
 * test's calls can be minutes apart, and a kept-alive connection the server closes as idle just as
 * the next call is sent is reset (ECONNRESET), which browsers retry and this client does not.
 */
export function apiAs(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}`, connection: 'close' };
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

/**
 * Signs in with the embedded provider's own endpoints, as the app's sign-in does, without drawing its
 * pages: the authorization request (code and PKCE, as oidc-client-ts sends it), the sign-in or
 * sign-up form posted, the code exchanged at the token endpoint. The provider's session cookie lands
 * in the page's context and the tokens where oidc-client-ts keeps them, then the page opens `from`
 * signed in. auth.spec.ts and guards.spec.ts test the pages themselves; drawn for every test, they
 * and the app loaded twice around them were a short test's largest cost.
 */
async function providerSession(page: Page, action: 'login' | 'signup', form: Record<string, string>, from: string) {
  // A page of the site's origin, light to load, to write its storage from; its address says which
  // server the context's base URL names (credits-stripe.spec.ts has one of its own).
  await page.goto('/healthz');
  const origin = new URL(page.url()).origin;
  const issuer = `${origin}/oidc`;
  const clientId = 'web';
  const redirectUri = `${origin}/auth/callback`;
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('hex');
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile email',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const next = async (response: APIResponse) => {
    expect(response.status(), await response.text()).toBeGreaterThanOrEqual(300);
    return new URL(response.headers().location!, origin);
  };
  const interaction = await next(await page.request.get(`${issuer}/auth?${query}`, { maxRedirects: 0 }));
  let location = await next(await page.request.post(`${interaction.href}/${action}`, { form, maxRedirects: 0 }));
  while (!location.href.startsWith(redirectUri)) location = await next(await page.request.get(location.href, { maxRedirects: 0 }));
  expect(location.searchParams.get('state')).toBe(state);
  const answer = await page.request.post(`${issuer}/token`, {
    form: { grant_type: 'authorization_code', code: location.searchParams.get('code')!, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  const tokens = (await answer.json()) as { id_token: string; access_token: string; refresh_token: string; token_type: string; scope: string; expires_in: number };
  // The user as oidc-client-ts stores it: the ID token's claims as its profile, less those it filters out.
  const claims = Object.entries(JSON.parse(Buffer.from(tokens.id_token.split('.')[1]!, 'base64url').toString()) as object);
  const profile = Object.fromEntries(claims.filter(([claim]) => !['nbf', 'jti', 'auth_time', 'nonce', 'acr', 'amr', 'azp', 'at_hash'].includes(claim)));
  const user = { ...tokens, session_state: null, profile, expires_at: Math.floor(Date.now() / 1000) + tokens.expires_in };
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [`oidc.user:${issuer}:${clientId}`, JSON.stringify(user)] as const);
  await page.goto(from);
}

/**
 * The page's address ends with `path`, or with `path` and a query string when `path` has none: a
 * back-office list writes its paging and filters into the address once it renders (Refine's
 * `syncWithLocation`), so a check that comes after the render sees them there.
 */
const endsWith = (path: string) => new RegExp(`${path.replace(/[/?.]/g, '\\$&')}${path.includes('?') ? '' : '(\\?.*)?'}$`);

/** Signs `account` in (see providerSession) and opens `from`, a dashboard page, signed in. */
export async function signIn(page: Page, account: { login: string; password: string } = accounts.alice, from = '/dashboard') {
  await providerSession(page, 'login', { login: account.login, password: account.password }, from);
  await expect(page).toHaveURL(endsWith(from));
}

/** A page in a browser context of its own, at 1280 px: another person's browser. */
async function pageOfItsOwn(browser: Browser, timezoneId?: string): Promise<Page> {
  const page = await (await browser.newContext(timezoneId ? { timezoneId } : {})).newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  return page;
}

/** A page of `account`'s, signed in in a context of its own at 1280 px, on `from`. */
export async function signedIn(browser: Browser, account: { login: string; password: string }, from = '/dashboard') {
  const page = await pageOfItsOwn(browser);
  await signIn(page, account, from);
  return page;
}

/** A new player, signed up with the embedded provider (see providerSession) in a context of its own, on `from`, living in `timezoneId` (the machine's by default). */
export async function signUp(browser: Browser, name: string, from = '/dashboard', timezoneId?: string): Promise<Page> {
  const page = await pageOfItsOwn(browser, timezoneId);
  await providerSession(page, 'signup', { username: name, email: `${name}@example.com`, password: 'Nether-portal-42' }, from);
  await expect(page).toHaveURL(endsWith(from));
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

/**
 * The port of a running game's own server, as its page shows it: beside the address by name (the
 * game gateway's, on in every browser test's server), which a test's client would reach only by
 * sending the name. Waits for it: the address by name alone would lead to the gateway.
 */
export async function serverPort(page: Page): Promise<number> {
  const direct = page.getByTestId('game-direct-address');
  await expect(direct).toHaveText(/:\d+$/);
  return Number((await direct.textContent())!.split(':').pop());
}

/** The process of a game's server on the test server's machine (the local driver runs it in the game's folder). */
export function gameServerPid(gameId: string): number {
  const folder = path.join(dataDir(port), 'games', gameId);
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let args: string[];
    try {
      args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (args.includes(folder)) return Number(pid);
  }
  throw new Error(`no server process runs in ${folder}`);
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
 * `shoot` must leave the page where it is. Leaves the page light, at 1280 px. With `{ phone: false }`
 * the 375 px looks are skipped: for a `shoot` that checks only at 1280 px (`desktopChecks`).
 */
export async function inEachLook(page: Page, open: () => Promise<unknown>, shoot: (look: Look) => Promise<unknown>, { phone = true }: { phone?: boolean } = {}) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate(() => localStorage.setItem('preferredTheme', 'light'));
  await open();
  for (const theme of ['light', 'dark'] as const) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await switchTheme(page, theme);
    for (const [label, width] of [['desktop', 1280], ...(phone ? [['phone', 375] as const] : [])] as const) {
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

/**
 * Pictures are for people to look at, not part of the tests: `npm run looks` runs the browser tests
 * with LOOKS=1, and only then are they taken (docs/architecture.md, Tests).
 */
export const takingLooks = process.env.LOOKS === '1';

/** For an `inEachLook` whose checks read the page at 1280 px only: its 375 px looks are pictures alone. */
export const desktopChecks = { phone: takingLooks };

/** A screenshot for a person to look at, taken only by `npm run looks`. */
export async function shoot<T extends Page | Locator>(target: T, options: NonNullable<Parameters<T['screenshot']>[0]> & { path: string }) {
  if (takingLooks) await (target as Page).screenshot(options);
}

/**
 * `inEachLook` for a `shoot` that only takes pictures: in the tests themselves the page is only
 * opened and made ready, and the looks are gone through by `npm run looks` alone.
 */
export async function picturesInEachLook(page: Page, open: () => Promise<unknown>, shoot: (look: Look) => Promise<unknown>) {
  if (!takingLooks) return void (await open());
  await inEachLook(page, open, shoot);
}

/** Full-page shots, for a person to look at, of the page `open` makes ready, in each look: `dir/name-label-theme.png`. */
export function shotsInEachLook(page: Page, dir: string, name: string, open: () => Promise<unknown>) {
  return picturesInEachLook(page, open, ({ theme, label }) => page.screenshot({ path: `${dir}/${name}-${label}-${theme}.png`, fullPage: true }));
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
  // Only the violations in full: axe otherwise describes every node each rule passed (a selector
  // and the HTML of each), most of its time on a back-office page, for results nobody reads.
  let axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
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
 * Opens a menu or a select's list with `opener` and clicks `item` in it. MUI's menus grow in with a
 * CSS transition (from a scale of 0.75 × 0.5625 about the opener), which a loaded machine can hold
 * at its first frame long enough for Playwright to find the item still. The press then lands on the
 * item where that first frame draws it, and the release, once the menu has grown, on another item:
 * nothing is picked. A clean CI run failed so: the hour select stayed on 04:00, 03:00 focused by the
 * press, and the pointer over 07:00, where 03:00 stood at the transition's start. The click waits
 * for the menu's transitions to end.
 */
export async function chooseIn(opener: Locator, item: Locator) {
  await opener.click();
  await item.waitFor();
  await transitionsEnded(item.page());
  await item.click();
}

/** Picks the option named `name` of an MUI select, `select` being its combobox (see chooseIn). */
export async function pickOption(select: Locator, name: string | RegExp, { exact = false }: { exact?: boolean } = {}) {
  await chooseIn(select, select.page().getByRole('option', { name, exact }));
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
