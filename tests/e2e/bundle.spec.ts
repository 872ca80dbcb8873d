import { expect, test } from './fixtures.ts';

test('the public pages do not download the dashboard, the sign-in client or a payment script', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  for (const path of ['/', '/about', '/store']) {
    await page.goto(path);
    await expect(page.locator('main h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => /DashboardRoutes|oidc|stripe|refine|DataGrid/i.test(s))).toEqual([]);
});
