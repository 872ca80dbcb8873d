import type { Page } from '@playwright/test';
import { accounts, expect, pickOption, shoot, signedIn, test } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/social';

async function linkMinecraft(page: Page, mcName: string) {
  // Before linking: Steve, and why to link an account where its name will be.
  await expect(page.getByTestId('link-minecraft-cta')).toContainText('Liez votre compte Minecraft');
  await expect(page.getByTestId('profile-head')).toHaveAttribute('data-linked', 'false');
  await page.getByLabel('Pseudo Minecraft').fill(mcName);
  await page.getByRole('button', { name: 'Lier', exact: true }).click();
  await expect(page.getByTestId('link-result')).toContainText(`Compte Minecraft ${mcName} lié.`);
  await expect(page.getByTestId('profile-mc-name')).toHaveText(mcName);
  await expect(page.getByTestId('profile-head')).toHaveAttribute('data-linked', 'true');
  await expect(page.getByRole('button', { name: 'Changer', exact: true })).toBeVisible();
}

test('two players link Minecraft accounts, become friends, and one groups the other', async ({ browser }) => {
  test.setTimeout(120_000);
  const bob = await signedIn(browser, accounts.bob, '/dashboard/profil');
  const alice = await signedIn(browser, accounts.alice, '/dashboard/profil');

  await expect(bob.getByTestId('display-name')).toHaveValue('bob');
  await linkMinecraft(bob, 'BobMC');
  await linkMinecraft(alice, 'AliceMC');

  // Bob waits on his requests tab.
  await bob.goto('/dashboard/social?tab=requests');
  await expect(bob.getByText('Aucune demande en attente.')).toBeVisible();

  // Alice asks BobMC; a name nobody linked is refused with the API's detail.
  await alice.goto('/dashboard/social');
  await expect(alice.getByText("Pas encore d'amis.", { exact: false })).toBeVisible();
  await alice.getByLabel('Son pseudo Minecraft').fill('NobodyHere');
  await alice.getByRole('button', { name: 'Envoyer la demande' }).click();
  await expect(alice.getByTestId('add-friend-result')).toContainText('Utilisateur introuvable');
  await alice.getByLabel('Son pseudo Minecraft').fill('BobMC');
  await alice.getByRole('button', { name: 'Envoyer la demande' }).click();
  await expect(alice.getByTestId('add-friend-result')).toContainText("Demande d'ami envoyée à BobMC.");
  await alice.getByRole('tab', { name: 'Demandes' }).click();
  await expect(alice.getByTestId('request-bob')).toContainText('Envoyée');

  // Bob sees it arrive without reloading, and accepts; Alice's pending request goes without a reload too.
  await expect(bob.getByTestId('request-alice')).toContainText('AliceMC');
  await shoot(bob, { path: `${SHOTS}/requests-1280-light.png` });
  await bob.getByRole('button', { name: 'Accepter la demande de AliceMC' }).click();
  await expect(bob.getByTestId('notice')).toContainText('Vous êtes maintenant amis avec AliceMC.');
  await expect(bob.getByText('Aucune demande en attente.')).toBeVisible();
  await expect(alice.getByText('Aucune demande en attente.')).toBeVisible();
  await bob.getByRole('tab', { name: 'Amis' }).click();
  await expect(bob.getByTestId('friend-alice')).toContainText('AliceMC');

  // Alice sees Bob, with his head, among her friends.
  await alice.getByRole('tab', { name: 'Amis' }).click();
  const bobRow = alice.getByTestId('friend-bob');
  await expect(bobRow).toContainText('BobMC');
  await expect(bobRow.getByRole('img')).toHaveAttribute('src', /^blob:/);

  // A group with Bob in it, then a pasted list with one bad name.
  await alice.getByRole('tab', { name: 'Groupes' }).click();
  await alice.getByLabel('Nom du nouveau groupe').fill('Escouade');
  await alice.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(alice.getByTestId('group-Escouade')).toBeVisible();
  const detail = alice.getByTestId('group-detail');
  await expect(detail).toContainText('Membres de Escouade');
  await pickOption(detail.getByRole('combobox', { name: 'Un ami' }), 'bob (BobMC)');
  await detail.getByRole('button', { name: "Ajouter l'ami" }).click();
  await expect(detail.getByTestId('member-bob')).toBeVisible();

  await detail.getByRole('button', { name: 'Importer une liste de pseudos' }).click();
  const dialog = alice.getByRole('dialog', { name: 'Importer des pseudos Minecraft' });
  await dialog.getByLabel('Pseudos Minecraft').fill('Notch\njeb_\nbad-name!');
  await expect(dialog).toContainText('3 pseudos');
  await dialog.getByRole('button', { name: 'Importer', exact: true }).click();
  await expect(dialog.getByTestId('import-summary')).toHaveText('2 pseudos ajoutés sur 3.');
  await expect(dialog.getByTestId('import-row-Notch')).toContainText('Ajouté');
  await expect(dialog.getByTestId('import-row-jeb_')).toContainText('Ajouté');
  await expect(dialog.getByTestId('import-row-bad-name!')).toContainText('Pseudo invalide');
  await shoot(alice, { path: `${SHOTS}/import-result-1280-light.png` });
  await dialog.getByRole('button', { name: 'Fermer' }).click();
  await expect(detail.getByTestId('member-Notch')).toBeVisible();
  await expect(alice.getByTestId('group-Escouade')).toContainText('3');

  // Deleting asks first; cancelling keeps the group.
  await alice.getByRole('button', { name: 'Supprimer le groupe Escouade' }).click();
  await expect(alice.getByRole('dialog', { name: 'Supprimer ce groupe ?' })).toBeVisible();
  await alice.getByRole('button', { name: 'Annuler' }).click();
  await expect(alice.getByTestId('group-Escouade')).toBeVisible();

  // Screens for a person to look at: desktop and phone, light and dark.
  for (const theme of ['light', 'dark'] as const) {
    await alice.evaluate((t) => localStorage.setItem('preferredTheme', t), theme);
    for (const [label, width, height] of [
      ['1280', 1280, 900],
      ['375', 375, 812],
    ] as const) {
      await alice.setViewportSize({ width, height });
      await alice.goto('/dashboard/social?tab=groups');
      await alice.getByRole('button', { name: /^Escouade/ }).click();
      await expect(alice.getByTestId('member-Notch')).toBeVisible();
      await shoot(alice, { path: `${SHOTS}/groups-${label}-${theme}.png`, fullPage: true });
      await alice.goto('/dashboard/social');
      await expect(alice.getByTestId('friend-bob').getByRole('img')).toHaveAttribute('src', /^blob:/);
      await shoot(alice, { path: `${SHOTS}/friends-${label}-${theme}.png`, fullPage: true });
      await alice.goto('/dashboard/profil');
      await expect(alice.getByTestId('profile-head')).toHaveAttribute('data-linked', 'true');
      await shoot(alice, { path: `${SHOTS}/profile-${label}-${theme}.png`, fullPage: true });
    }
  }

  // Blocking from a friend's row asks first, then moves Bob to the block list; unblocking empties it.
  await alice.setViewportSize({ width: 375, height: 812 });
  await alice.goto('/dashboard/social');
  await alice.getByRole('button', { name: 'Bloquer BobMC' }).click();
  const confirmBlock = alice.getByRole('dialog', { name: 'Bloquer ce joueur ?' });
  await expect(confirmBlock).toContainText('BobMC sera retiré de vos amis');
  // The dialog's fade-in has ended, for the picture.
  await expect(alice.locator('.MuiDialog-container')).toHaveCSS('opacity', '1');
  await shoot(alice, { path: `${SHOTS}/block-confirm-375-dark.png` });
  await confirmBlock.getByRole('button', { name: 'Bloquer' }).click();
  await expect(alice.getByTestId('notice')).toContainText('BobMC est bloqué.');
  await expect(alice.getByText("Pas encore d'amis.", { exact: false })).toBeVisible();
  await alice.getByRole('tab', { name: 'Bloqués' }).click();
  await expect(alice.getByTestId('blocked-bob')).toContainText('BobMC');
  await alice.getByRole('button', { name: 'Débloquer' }).click();
  await expect(alice.getByText("Vous n'avez bloqué personne.")).toBeVisible();

  // The profile's switches: English, then the dark theme saved as preferredTheme.
  await alice.evaluate(() => localStorage.setItem('preferredTheme', 'light'));
  await alice.setViewportSize({ width: 1280, height: 900 });
  await alice.goto('/dashboard/profil');
  await alice.getByRole('button', { name: 'English', exact: true }).click();
  await expect(alice).toHaveURL(/\/en\/dashboard\/profil$/);
  await expect(alice.getByRole('heading', { name: 'My profile' })).toBeVisible();
  await alice.getByRole('button', { name: 'Dark', exact: true }).click();
  expect(await alice.evaluate(() => localStorage.getItem('preferredTheme'))).toBe('dark');
  await expect(alice.locator('html')).toHaveAttribute('data-theme', 'dark');
});
