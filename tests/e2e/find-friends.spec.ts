import { accounts, expect, picturesInEachLook, shoot, signedIn, signIn, test } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/find-friends';

test('a player without a Minecraft account is asked to link one, finds a friend by BlockHost name, and the friend sees the request', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await signedIn(browser, accounts.support);

  // No Minecraft account linked: the dashboard says why to link one and leads to the profile.
  const homeCta = page.getByTestId('link-minecraft-cta');
  await expect(homeCta).toContainText('Liez votre compte Minecraft');
  await expect(homeCta).toContainText('liste blanche');
  await picturesInEachLook(
    page,
    () => expect(homeCta).toBeVisible(),
    ({ theme, width }) => shoot(page, { path: `${SHOTS}/home-cta-${width}-${theme}.png`, fullPage: true }),
  );
  await homeCta.getByRole('link', { name: 'Lier mon compte Minecraft' }).click();
  await expect(page).toHaveURL(/\/dashboard\/profil$/);
  // The profile shows the same call where the Minecraft name would be, not a placeholder name.
  await expect(page.getByTestId('link-minecraft-cta')).toContainText('vos amis vous trouveront par votre pseudo Minecraft', { ignoreCase: true });
  await expect(page.getByTestId('profile-mc-name')).toHaveCount(0);
  await expect(page.getByText('Unknow', { exact: true })).toHaveCount(0);
  await picturesInEachLook(
    page,
    () => expect(page.getByTestId('link-minecraft-cta')).toBeVisible(),
    ({ theme, width }) => shoot(page, { path: `${SHOTS}/profile-cta-${width}-${theme}.png`, fullPage: true }),
  );

  // Two letters suggest nothing; Enter looks the exact name up, which nobody has.
  await page.goto('/dashboard/social');
  const search = page.getByLabel('Son nom BlockHost');
  await search.fill('al');
  await search.press('Enter');
  await expect(page.getByTestId('find-player-empty')).toContainText('Aucun joueur nommé « al ».');
  // Three letters of the name suggest alice, never by her email.
  await search.fill('ali');
  const alice = page.getByTestId('found-alice');
  await expect(alice).toBeVisible();
  await expect(page.locator('#find-player-results')).not.toContainText('@');
  await picturesInEachLook(
    page,
    () => expect(alice).toBeVisible(),
    ({ theme, width }) => shoot(page, { path: `${SHOTS}/find-${width}-${theme}.png`, fullPage: true }),
  );
  await search.fill('ali');
  await alice.getByRole('button', { name: 'Ajouter alice en ami' }).click();
  await expect(page.getByTestId('find-player-result')).toContainText("Demande d'ami envoyée à alice.");
  await expect(alice.getByRole('button', { name: 'Ajouter alice en ami' })).toHaveText('Demande envoyée');
  await expect(alice.getByRole('button', { name: 'Ajouter alice en ami' })).toBeDisabled();

  // Alice sees the request from support.
  const other = await (await browser.newContext()).newPage();
  await signIn(other, accounts.alice, '/dashboard/social');
  await other.getByRole('tab', { name: 'Demandes' }).click();
  await expect(other.getByTestId('request-support')).toBeVisible();
  await expect(other.getByRole('button', { name: /^Accepter la demande de/ })).toBeVisible();
  // She declines it, so the seeded accounts are as they were for the specs after this one.
  await other.getByRole('button', { name: /^Refuser la demande de/ }).click();
  await expect(other.getByTestId('request-support')).toHaveCount(0);
});
