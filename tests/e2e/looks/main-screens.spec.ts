import { accounts, expect, signIn, switchTheme, test, transitionsEnded } from '../fixtures.ts';

/** Screenshots of the main screens, for people to look at: test-results/screenshots/. */
const dir = 'test-results/screenshots';
const widths = [
  ['desktop', 1280, 800],
  ['phone', 375, 740],
  ['wide', 1920, 1080],
] as const;

test('screenshots of the main screens in both themes, at a desktop, a phone and a wide width', async ({ page }) => {
  test.setTimeout(180_000);
  /**
   * The open page in each theme and width: the theme switched with the header's toggle and the
   * window resized, as a person would, rather than the page loaded six times. On a phone, the
   * navigation drawer too, when `drawer` names its shot.
   */
  const inEachLook = async (name: string, drawer?: string) => {
    for (const mode of ['light', 'dark'] as const) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await switchTheme(page, mode);
      for (const [device, width, height] of widths) {
        await page.setViewportSize({ width, height });
        await transitionsEnded(page);
        await page.screenshot({ path: `${dir}/${name}-${mode}-${device}.png`, fullPage: true });
        if (device !== 'phone' || !drawer) continue;
        await page.getByTestId('drawer-button').click();
        await expect(page.getByTestId('nav-drawer')).toBeVisible();
        await transitionsEnded(page);
        await page.screenshot({ path: `${dir}/${drawer}-${mode}-${device}.png` });
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('nav-drawer')).toBeHidden();
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await switchTheme(page, 'light');
  };

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await inEachLook('home');
  await page.goto('/cgu');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await inEachLook('content');
  await page.goto('/lsg');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await inEachLook('style-guide', 'drawer');
  await signIn(page, accounts.alice);
  await expect(page.getByTestId('user-balance')).toBeVisible();
  await inEachLook('dashboard');
  await page.goto('/dashboard/social');
  await expect(page.getByRole('tab').first()).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await inEachLook('social', 'drawer-signed-in');
});
