import type { Locator, Page } from '@playwright/test';
import { accessToken, expect, pickOption, serverPort, shoot, signUp, staffApi, test } from './fixtures.ts';
import { join, quit } from '../fixtures/minecraft.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/social-server';

/** Staff grant credits to the page's user through the API, as support would. */
async function grantCredits(player: Page, amount: number) {
  const me = await (await player.request.get('/v1/user', { headers: { authorization: `Bearer ${await accessToken(player)}` } })).json();
  expect((await (await staffApi(player.request)).post('/v1/user/credit', { userId: me.id, amount, reason: 'Browser test credits' })).status()).toBe(200);
}

async function linkMinecraft(page: Page, mcName: string) {
  await page.getByLabel('Pseudo Minecraft').fill(mcName);
  await page.getByRole('button', { name: 'Lier', exact: true }).click();
  await expect(page.getByTestId('profile-mc-name')).toHaveText(mcName);
}

/** The unread count the bell announces. */
async function unread(bell: Locator): Promise<number> {
  const name = (await bell.getAttribute('aria-label')) ?? '';
  return Number(/(\d+)/.exec(name)?.[1] ?? NaN);
}

test('a friend group goes on the whitelist from the control panel, its member joins, and friends hear the server is open', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(240_000);
  const run = Date.now().toString(36).slice(-5);
  const bobName = `bob_${run}`;
  const bobMc = `Bob_${run}`;
  const aliceMc = `Alice_${run}`;
  const bob = await signUp(browser, bobName, '/dashboard/profil');
  const alice = await signUp(browser, `alice_${run}`, '/dashboard/profil');
  await grantCredits(alice, 100);
  await linkMinecraft(bob, bobMc);
  await linkMinecraft(alice, aliceMc);

  // Alice asks BobMC; Bob, on his profile, sees the bell ring without reloading.
  const bell = bob.getByTestId('notification-bell');
  await expect(bell).toBeVisible();
  const before = await unread(bell);
  await alice.goto('/dashboard/social');
  await alice.getByLabel('Son pseudo Minecraft').fill(bobMc);
  await alice.getByRole('button', { name: 'Envoyer la demande' }).click();
  await expect(alice.getByTestId('add-friend-result')).toContainText(`Demande d'ami envoyée à ${bobMc}.`);
  await expect.poll(() => unread(bell), { timeout: 15_000 }).toBe(before + 1);
  await bell.click();
  await expect(bob.getByRole('dialog', { name: 'Notifications' }).getByTestId('notification').first()).toContainText(`alice_${run} veut devenir votre ami.`);
  await bob.keyboard.press('Escape');

  await bob.goto('/dashboard/social?tab=requests');
  await bob.getByRole('button', { name: `Accepter la demande de ${aliceMc}` }).click();
  await expect(bob.getByTestId('notice')).toContainText(`Vous êtes maintenant amis avec ${aliceMc}.`);

  // Alice puts Bob in a group.
  await alice.goto('/dashboard/social?tab=groups');
  await alice.getByLabel('Nom du nouveau groupe').fill('Escouade');
  await alice.getByRole('button', { name: 'Créer', exact: true }).click();
  const detail = alice.getByTestId('group-detail');
  await expect(detail).toContainText('Membres de Escouade');
  await pickOption(detail.getByRole('combobox', { name: 'Un ami' }), `${bobName} (${bobMc})`);
  await detail.getByRole('button', { name: "Ajouter l'ami" }).click();
  await expect(detail.getByTestId(`member-${bobName}`)).toBeVisible();

  // Alice creates a server and starts it.
  await alice.goto('/store');
  await alice.getByTestId('game-card').filter({ hasText: 'Survie' }).click();
  await expect(alice).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
  const definitionId = new URL(alice.url()).pathname.split('/').pop()!;
  await alice.goto(`/dashboard/creategame/${definitionId}`);
  // The package by name: other specs on this server may have added a cheaper one (the default).
  await alice.getByRole('radio', { name: /Petit/ }).check();
  await alice.getByLabel('Nom du serveur').fill('Chez Alice');
  await alice.getByRole('button', { name: 'Payer 100 crédits et créer' }).click();
  await expect(alice).toHaveURL(/\/dashboard\/game\/[0-9a-f-]{36}$/);

  // Stopped: announcing is not offered yet.
  const friends = alice.getByTestId('friends-card');
  const groupSection = friends.getByRole('region', { name: 'Ajouter un groupe d’amis à une liste' });
  const announceSection = friends.getByRole('region', { name: 'Prévenir mes amis' });
  await expect(friends.getByRole('button', { name: 'Prévenir mes amis' })).toBeDisabled();

  await alice.getByRole('button', { name: 'Démarrer', exact: true }).click();
  await alice.getByRole('dialog').getByRole('button', { name: 'Démarrer', exact: true }).click();
  await expect(alice.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  await expect(alice.getByTestId('game-address')).toHaveText(/^[\w.-]+:\d+$/);
  const port = await serverPort(alice);

  // Whitelist on, then the group on the whitelist from the control panel.
  await alice.getByRole('checkbox', { name: 'Tout le monde peut entrer' }).click();
  await expect(alice.getByRole('checkbox', { name: 'Seuls les joueurs de la liste blanche peuvent entrer' })).toBeChecked();
  await pickOption(friends.getByRole('combobox', { name: 'Groupe d’amis' }), 'Escouade (1 membre)');
  await expect(friends.getByRole('combobox', { name: 'Liste' })).toHaveText('Liste blanche');
  await friends.getByRole('button', { name: 'Appliquer' }).click();
  await expect(groupSection.getByRole('status')).toContainText('Groupe « Escouade » ajouté à la liste « Liste blanche ».');
  // The lists card is read again and shows Bob's Minecraft name on the whitelist.
  await expect(alice.getByRole('tab', { name: 'Liste blanche' })).toHaveAttribute('aria-selected', 'true');
  await expect(alice.getByRole('listitem').filter({ hasText: bobMc }).filter({ hasText: 'Ajouté' })).toBeVisible();

  // Someone else is refused; BobMC gets in.
  const stranger = await join(port, 'Stranger_e2e', '1.21.4');
  expect(stranger.joined).toBe(false);
  const joined = await join(port, bobMc, '1.21.4');
  expect(joined.joined).toBe(true);
  await expect(alice.getByRole('listitem').filter({ hasText: bobMc }).getByRole('button', { name: 'Expulser' })).toBeVisible({ timeout: 20_000 });

  // Announce: one friend notified, and Bob's bell rings with the server's name.
  await bob.goto('/dashboard/profil');
  await expect(bell).toBeVisible();
  const beforeAnnounce = await unread(bell);
  await friends.getByRole('button', { name: 'Prévenir mes amis' }).click();
  await expect(announceSection.getByRole('status')).toContainText('1 ami prévenu.');
  await expect.poll(() => unread(bell), { timeout: 15_000 }).toBe(beforeAnnounce + 1);
  await bell.click();
  await expect(bob.getByRole('dialog', { name: 'Notifications' }).getByTestId('notification').first()).toContainText('Serveur « Chez Alice » ouvert');
  await bob.keyboard.press('Escape');

  // A second announce within ten minutes: the API's 429 detail is shown.
  await friends.getByRole('button', { name: 'Prévenir mes amis' }).click();
  await expect(announceSection.getByRole('alert')).toContainText("il pourra l'être de nouveau le");

  // The new section, for a person to look at.
  for (const width of [1280, 375]) {
    await alice.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await friends.scrollIntoViewIfNeeded();
    await shoot(friends, { path: `${SHOTS}/friends-card-${width}.png` });
  }

  if (joined.joined) await quit(joined.bot);
});
