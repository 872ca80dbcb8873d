import { expect, test } from './fixtures.ts';

test('an unknown path answers 404 and says which page is missing', async ({ page }) => {
  const res = await page.goto('/no/such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId('error-status')).toHaveText('404');
  await expect(page.getByTestId('error-message')).toHaveText('Page introuvable : /no/such-page');
  const en = await page.goto('/en/nothing-here');
  expect(en?.status()).toBe(404);
  await expect(page.getByTestId('error-message')).toHaveText('Page not found: /nothing-here');
});

test('known pages answer 200', async ({ request }) => {
  for (const path of ['/', '/about', '/en/cgu', '/fr/store', '/products/42', '/dashboard/game/7', '/ranked/coupe-hiver-2026', '/mumble-redirect/play.example.com']) {
    expect((await request.get(path)).status(), path).toBe(200);
  }
});

test('a failing page shows the error page, with a way back home', async ({ page }) => {
  await page.route('**/_content/query/**', (route) =>
    route.fulfill({ status: 500, contentType: 'application/problem+json', body: JSON.stringify({ title: 'Internal Server Error', status: 500, detail: 'Something broke' }) }),
  );
  await page.goto('/about');
  await expect(page.getByTestId('error-status')).toHaveText('500');
  await expect(page.getByTestId('error-message')).toHaveText('Something broke');
  await page.getByRole('link', { name: "Retour à l'accueil" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('an error nobody handled shows the error page too', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => {
    void Promise.reject(new Error('Nobody caught this'));
  });
  await expect(page.getByTestId('error-status')).toHaveText('500');
  await expect(page.getByRole('link', { name: "Retour à l'accueil" })).toBeVisible();
});

test('without its settings the app shows the error page, not a blank one', async ({ page }) => {
  await page.route('**/app-config.json', (route) => route.fulfill({ status: 502, body: 'Bad gateway' }));
  await page.goto('/about');
  await expect(page.getByTestId('error-status')).toHaveText('503');
  await expect(page.getByTestId('error-message')).toHaveText('Le service est momentanément indisponible. Réessayez dans un instant.');
  await expect(page.getByRole('link', { name: "Retour à l'accueil" })).toHaveAttribute('href', '/');
});
