import { expect, openTab, shotsInEachLook, signUp, staffApi, takingLooks, test, accessToken } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/address-name';

const run = Date.now().toString(36).toLowerCase();

test('the buy form suggests an address name the player may change, and the owner renames it once a day in the settings', async ({ browser }) => {
  test.setTimeout(120_000);
  const player = `nm${run}`;
  const page = await signUp(browser, player);
  const token = await accessToken(page);
  const me = (await (await page.request.get('/v1/user', { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string };
  expect((await (await staffApi(page.request)).post('/v1/user/credit', { userId: me.id, amount: 200, reason: 'Browser test credits' })).status()).toBe(200);
  await page.goto('/dashboard/store');
  await page.getByTestId('game-card').filter({ hasText: 'Survie' }).click();
  await page.getByTestId('create-cta').click();

  // The suggestion follows the server's name while the player has not typed one.
  const address = page.getByLabel('Adresse du serveur');
  await page.getByLabel('Nom du serveur').fill('Chez Nous');
  await expect(address).toHaveValue(`${player}-chez-nous`);
  await expect(page.getByText(`Vos joueurs taperont ${player}-chez-nous.localhost`)).toBeVisible();

  // Their own is checked as they type: a reserved word is refused under the field.
  await address.fill('www');
  await expect(page.getByText('Ce nom est réservé : choisissez-en un autre.')).toBeVisible();
  const chosen = `nous-${run}`;
  await address.fill(chosen);
  await expect(page.getByText(`Vos joueurs taperont ${chosen}.localhost`)).toBeVisible();
  await shotsInEachLook(page, SHOTS, 'buy-form-fr', () => expect(address).toHaveValue(chosen));
  await page.getByLabel('Nom du serveur').fill('Chez Nous, encore');
  await expect(address).toHaveValue(chosen);
  await page.getByRole('button', { name: /^Payer .* et créer$/ }).click();
  await expect(page).toHaveURL(/\/dashboard\/game\/[0-9a-f-]{36}$/);

  await openTab(page, 'Réglages');
  const field = page.getByLabel('Nom dans l’adresse');
  await expect(field).toHaveValue(chosen);
  await expect(page.getByText('Vous pouvez la changer une fois par jour', { exact: false })).toBeVisible();
  const renamed = `chez-${run}`;
  await field.fill(renamed);
  await page.getByRole('button', { name: 'Changer l’adresse' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(`L’adresse « ${chosen} » cessera aussitôt de mener à ce serveur`, { exact: false })).toBeVisible();
  await dialog.getByRole('button', { name: 'Changer l’adresse' }).click();
  await expect(page.getByText(`L’adresse du serveur est maintenant « ${renamed} ».`)).toBeVisible();
  // Once a day: the card now says until when, and the field waits.
  await expect(page.getByText('L’adresse vient de changer : prochain changement possible le', { exact: false })).toBeVisible();
  await expect(field).toBeDisabled();
  await shotsInEachLook(page, SHOTS, 'settings-card-fr', () => expect(field).toBeDisabled());
  if (takingLooks) {
    await page.goto(`/en${new URL(page.url()).pathname}`);
    await openTab(page, 'Settings');
    await shotsInEachLook(page, SHOTS, 'settings-card-en', () => expect(page.getByLabel('Name in the address')).toBeDisabled());
  }
});
