import { expect, seriousViolations, test, useTheme } from './fixtures.ts';

const pages = [
  { name: 'home', path: '/' },
  { name: 'store', path: '/store' },
  { name: 'about', path: '/about' },
  { name: 'cgu', path: '/cgu' },
  { name: 'error page', path: '/no-such-page' },
];

for (const mode of ['light', 'dark'] as const) {
  test.describe(`${mode} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await useTheme(page, mode);
      await page.emulateMedia({ colorScheme: mode });
    });

    for (const { name, path } of pages) {
      test(`no serious or critical accessibility violation: ${name}`, async ({ page }) => {
        await page.goto(path);
        await expect(page.locator('main h1').first()).toBeVisible();
        await page.waitForLoadState('networkidle');
        expect(await seriousViolations(page, { theme: mode })).toEqual([]);
      });
    }

    test('no serious or critical accessibility violation: sign-in page', async ({ page }) => {
      await page.goto('/dashboard');
      await expect(page).toHaveURL(/\/oidc\/interaction\//);
      expect(await seriousViolations(page, { theme: mode })).toEqual([]);
    });
  });
}
