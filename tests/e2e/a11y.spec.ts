import { expect, seriousViolations, switchTheme, test, useTheme } from './fixtures.ts';

const pages = [
  { name: 'home', path: '/' },
  { name: 'store', path: '/store' },
  { name: 'about', path: '/about' },
  { name: 'cgu', path: '/cgu' },
  { name: 'error page', path: '/no-such-page' },
];

// Each page is loaded once, in the light theme, then switched to the dark one in place (the header's
// toggle, the system's colour scheme), as a player does: the dark theme's check reads only colours
// (seriousViolations), and a second page load in a browser context of its own read the same page.
for (const { name, path } of pages) {
  test(`no serious or critical accessibility violation, light then dark theme: ${name}`, async ({ page }) => {
    await useTheme(page, 'light');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(path);
    await expect(page.locator('main h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page, { theme: 'light' })).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await switchTheme(page, 'dark');
    expect(await seriousViolations(page, { theme: 'dark' })).toEqual([]);
  });
}

test('no serious or critical accessibility violation, light then dark theme: sign-in page', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/oidc\/interaction\//);
  expect(await seriousViolations(page, { theme: 'light' })).toEqual([]);
  // The provider's pages follow the system's colour scheme alone.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), { timeout: 5000 }).toBe(true);
  expect(await seriousViolations(page, { theme: 'dark' })).toEqual([]);
});
