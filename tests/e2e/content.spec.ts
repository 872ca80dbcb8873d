import { expect, test } from './fixtures.ts';

test('a content page with a table of contents links to its sections', async ({ page }) => {
  await page.goto('/cgu');
  await expect(page).toHaveTitle("Conditions générales d'utilisation · BlockHost");
  const toc = page.getByRole('navigation', { name: 'Sommaire' });
  await expect(toc).toBeVisible();
  const first = toc.getByRole('link').first();
  const target = (await first.getAttribute('href'))!;
  await first.click();
  await expect(page).toHaveURL(new RegExp(`${target}$`));
  await expect(page.locator(target)).toBeInViewport();
});

test('a content page with a redirect sends the visitor on', async ({ page }) => {
  await page.goto('/mentions-legales');
  await expect(page).toHaveURL(/\/legal$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mentions légales');
  await page.goto('/en/mentions-legales');
  await expect(page).toHaveURL(/\/en\/legal$/);
});

test('the competitions page lists the tournaments, and one leads to its page at its old address', async ({ page }) => {
  await page.goto('/en/ranked');
  await page
    .getByTestId('tournaments-upcoming')
    .getByRole('link', { name: /Winter Cup 2026/ })
    .click();
  await expect(page).toHaveURL(/\/en\/ranked\/coupe-hiver-2026$/);
  await expect(page.getByTestId('tournament-status')).toHaveText('Upcoming');
  await expect(page.getByText('Registration open until 10 December')).toBeVisible();
});

test('the style guide, the Mumble redirect and the token page', async ({ page }) => {
  await page.goto('/lsg');
  await expect(page.getByRole('heading', { name: 'Thème clair' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Thème sombre' })).toBeVisible();
  // The game's channel, named in the link, as a path of Mumble's URL, which also wants the protocol version.
  await page.goto('/mumble-redirect/voice.example.com:64738?channel=Le%20monde%20d%E2%80%99Alice');
  await expect(page.getByText('Ouverture du salon « Le monde d’Alice » du serveur vocal voice.example.com:64738 dans Mumble…')).toBeVisible();
  await expect(page.getByTestId('mumble-link')).toHaveAttribute('href', 'mumble://voice.example.com:64738/Le%20monde%20d%E2%80%99Alice?version=1.2.0');
  await page.goto('/jwt');
  await expect(page.getByText('Connectez-vous pour voir')).toBeVisible();
});
