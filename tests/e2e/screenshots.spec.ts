import { accounts, expect, signIn, test, transitionsEnded, useTheme } from './fixtures.ts';

/** Screenshots of the main screens, for people to look at: test-results/screenshots/. */
const dir = 'test-results/screenshots';
const widths = [
  ['desktop', 1280, 800],
  ['phone', 375, 740],
  ['wide', 1920, 1080],
] as const;

for (const mode of ['light', 'dark'] as const) {
  for (const [device, width, height] of widths) {
    test(`screenshots: ${mode}, ${device}`, async ({ page }) => {
      await useTheme(page, mode);
      await page.setViewportSize({ width, height });
      const shot = (name: string, fullPage = true) => page.screenshot({ path: `${dir}/${name}-${mode}-${device}.png`, fullPage });

      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await shot('home');
      await page.goto('/cgu');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await shot('content');
      await page.goto('/lsg');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await shot('style-guide');
      if (device === 'phone') {
        await page.getByTestId('drawer-button').click();
        await expect(page.getByTestId('nav-drawer')).toBeVisible();
        await transitionsEnded(page);
        await shot('drawer', false);
        await page.keyboard.press('Escape');
      }
      await signIn(page, accounts.alice);
      await expect(page.getByTestId('user-balance')).toBeVisible();
      await shot('dashboard');
      await page.goto('/dashboard/social');
      await expect(page.getByRole('tab').first()).toBeVisible();
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      await shot('social');
      if (device === 'phone') {
        await page.getByTestId('drawer-button').click();
        await expect(page.getByTestId('nav-drawer')).toBeVisible();
        await transitionsEnded(page);
        await shot('drawer-signed-in', false);
      }
    });
  }
}
