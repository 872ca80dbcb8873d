import { expect, test } from './fixtures.ts';

test('each locale form of a page: unprefixed (browser language), /fr and /en', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Qui sommes-nous ?');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await page.goto('/fr/about');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Qui sommes-nous ?');
  await page.goto('/en/about');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Who we are');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('link', { name: 'Competitions' }).first()).toHaveAttribute('href', '/en/ranked');
});

test.describe('an English browser', () => {
  test.use({ locale: 'en-US' });

  test('gets English unprefixed; the switcher keeps the page and the cookie remembers the choice', async ({ page, context }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Who we are');
    await page.getByRole('button', { name: 'Passer en français' }).click();
    await expect(page).toHaveURL(/\/fr\/about$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Qui sommes-nous ?');

    const cookie = (await context.cookies()).find((c) => c.name === 'locale')!;
    expect(cookie.value).toBe('fr');
    expect(cookie.sameSite).toBe('Lax');
    const days = (cookie.expires - Date.now() / 1000) / 86400;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);

    // The cookie now wins over the browser's languages.
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Qui sommes-nous ?');
  });
});
