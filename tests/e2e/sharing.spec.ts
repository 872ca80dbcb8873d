import { join, kicked, quit } from '../fixtures/minecraft.ts';
import { accessToken, apiAs, buyServerInStore, expect, openTab, pickOption, picturesInEachLook, serverPort, shoot, signUp, test, transitionsEnded } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/sharing';

test('a player shares a server with a friend group as moderators, then co-admins, and a member removed from the group loses it at once', { tag: '@game-server' }, async ({ browser }) => {
  test.setTimeout(300_000);
  const run = Date.now().toString(36).slice(-5);
  const aliceName = `alice_${run}`;
  const bobName = `bob_${run}`;
  const { page: alice, token: aliceToken, gamePath } = await buyServerInStore(browser, aliceName, 'Chez Alice');
  const bob = await signUp(browser, bobName);
  const asAlice = apiAs(alice.request, aliceToken);
  const asBob = apiAs(bob.request, await accessToken(bob));
  const aliceId = ((await (await asAlice.get('/v1/user')).json()) as { id: string }).id;
  const bobId = ((await (await asBob.get('/v1/user')).json()) as { id: string }).id;

  // Friends (Bob's request answers Alice's), and a group "Potes" with Bob in it.
  expect((await asAlice.post('/v1/friend', { userId: bobId })).status()).toBe(201);
  expect((await asBob.post('/v1/friend', { userId: aliceId })).status()).toBe(201);
  const created = await asAlice.post('/v1/friend/group', { name: 'Potes' });
  expect(created.status()).toBe(201);
  const groupId = ((await created.json()) as { id: string }).id;
  expect((await asAlice.post(`/v1/friend/group/${groupId}/member`, { userId: bobId })).status()).toBe(201);

  // Bob has no shared server yet: no such section on his dashboard.
  await bob.goto('/dashboard');
  await expect(bob.getByText('Vous n’avez pas encore de serveur')).toBeVisible();
  await expect(bob.getByRole('heading', { name: 'Serveurs partagés avec moi' })).toHaveCount(0);

  // Alice's Partage tab: nobody yet; she shares with "Potes" as moderators.
  await alice.goto(gamePath);
  await openTab(alice, 'Partage');
  await expect(alice).toHaveURL(new RegExp(`${gamePath}/sharing$`));
  await expect(alice.getByText('Ce serveur n’est partagé avec personne')).toBeVisible();
  const form = alice.getByTestId('sharing-form');
  for (const width of [1280, 375]) {
    await alice.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await shoot(alice, { path: `${SHOTS}/sharing-empty-fr-${width}.png`, fullPage: true });
  }
  // The roles, each with what it allows, as a phone shows them.
  await form.getByRole('combobox', { name: 'Rôle' }).click();
  await expect(alice.getByRole('option', { name: /^Co-admin/ })).toBeVisible();
  await transitionsEnded(alice);
  await shoot(alice, { path: `${SHOTS}/sharing-roles-fr-375.png` });
  await alice.keyboard.press('Escape');
  await alice.setViewportSize({ width: 1280, height: 900 });
  await pickOption(form.getByRole('combobox', { name: 'Avec' }), 'Potes (1 membre)');
  await form.getByRole('combobox', { name: 'Rôle' }).click();
  await expect(alice.getByRole('option', { name: /^Co-admin/ })).toContainText('démarre, arrête');
  // The menu has grown before its option is clicked (pickOption says why).
  await transitionsEnded(alice);
  await alice.getByRole('option', { name: /^Modérateur/ }).click();
  await expect(form).toContainText('expulse, gère les listes');
  await form.getByRole('button', { name: 'Partager', exact: true }).click();
  await expect(alice.getByTestId('sharing-result')).toContainText('Partagé avec Potes (Modérateur).');
  const grant = alice.getByTestId('grant-Potes');
  await expect(grant).toContainText('Groupe · 1 membre');
  await expect(grant.getByRole('combobox', { name: 'Rôle de Potes' })).toHaveText('Modérateur');
  await expect(alice.getByText('Ce serveur n’est partagé avec personne')).toHaveCount(0);

  // Bob's dashboard lists it (read again on the live change), with its owner and his role.
  const shared = bob.getByTestId('shared-game-item').filter({ hasText: 'Chez Alice' });
  await expect(shared).toBeVisible();
  await expect(shared).toContainText(`De ${aliceName}`);
  await expect(shared.getByTestId('shared-game-role')).toHaveText('Modérateur');

  // How they look: the Partage tab and Bob's dashboard, in both languages, themes and widths.
  for (const lang of ['fr', 'en'] as const) {
    const prefix = lang === 'fr' ? '' : '/en';
    await picturesInEachLook(
      alice,
      async () => {
        await alice.goto(`${prefix}${gamePath}/sharing`);
        await expect(alice.getByTestId('grant-Potes')).toBeVisible();
        await expect(alice.getByTestId('sharing-form').getByRole('combobox').first()).toBeVisible();
      },
      ({ theme, label }) => shoot(alice, { path: `${SHOTS}/sharing-tab-${lang}-${label}-${theme}.png`, fullPage: true }),
    );
    await picturesInEachLook(
      bob,
      async () => {
        await bob.goto(`${prefix}/dashboard`);
        await expect(bob.getByTestId('shared-game-item')).toBeVisible();
      },
      ({ theme, label }) => shoot(bob, { path: `${SHOTS}/bob-dashboard-${lang}-${label}-${theme}.png`, fullPage: true }),
    );
  }
  await alice.goto(`${gamePath}/sharing`);
  await bob.goto('/dashboard');

  // Bob opens it: shared by Alice, as a moderator; no power buttons, no billing, no owner's tabs.
  await bob.getByTestId('shared-game-item').filter({ hasText: 'Chez Alice' }).click();
  await expect(bob).toHaveURL(new RegExp(`${gamePath}$`));
  await expect(bob.getByTestId('shared-by')).toHaveText(`Partagé par ${aliceName} · Modérateur`);
  await expect(bob.getByRole('tab', { name: 'Aperçu' })).toBeVisible();
  await expect(bob.getByRole('tab', { name: 'Console' })).toBeVisible();
  for (const tab of ['Partage', 'Réglages', 'Sauvegardes']) await expect(bob.getByRole('tab', { name: tab })).toHaveCount(0);
  for (const action of ['Démarrer', 'Arrêter', 'Redémarrer']) await expect(bob.getByRole('button', { name: action, exact: true })).toHaveCount(0);
  await expect(bob.getByTestId('friends-card')).toBeVisible();
  for (const lang of ['fr', 'en'] as const) {
    await picturesInEachLook(
      bob,
      async () => {
        await bob.goto(lang === 'fr' ? gamePath : `/en${gamePath}`);
        await expect(bob.getByTestId('shared-by')).toContainText(aliceName);
      },
      ({ theme, label }) => shoot(bob, { path: `${SHOTS}/bob-game-${lang}-${label}-${theme}.png`, fullPage: true }),
    );
  }
  // The Partage tab's address leads him back to the control panel.
  await bob.goto(`${gamePath}/sharing`);
  await expect(bob).toHaveURL(new RegExp(`${gamePath}$`));
  await expect(bob.getByTestId('shared-by')).toBeVisible();

  // Alice starts it; a player joins and Bob, a moderator, kicks him from the players card.
  await alice.goto(gamePath);
  await alice.getByRole('button', { name: 'Démarrer', exact: true }).click();
  await alice.getByRole('dialog').getByRole('button', { name: 'Démarrer', exact: true }).click();
  await expect(alice.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  await expect(alice.getByTestId('game-address')).toHaveText(/^[\w.-]+:\d+$/);
  const port = await serverPort(alice);
  const player = `Steve_${run}`;
  const joined = await join(port, player, '1.21.4');
  if (!joined.joined) throw new Error(`${player} could not join: ${joined.reason}`);
  try {
    await expect(bob.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 20_000 });
    const row = bob.getByRole('listitem').filter({ hasText: player });
    await row.getByRole('button', { name: 'Expulser' }).click({ timeout: 20_000 });
    const gone = kicked(joined.bot);
    await bob.getByRole('dialog').getByRole('button', { name: 'Expulser' }).click();
    await expect(bob.getByText(`${player} a été expulsé.`)).toBeVisible();
    await gone;
  } finally {
    await quit(joined.bot);
  }
  // Nor may he stop it through the API: a moderator's stop is refused, and the server keeps running.
  const gameId = gamePath.split('/').pop()!;
  const refused = await asBob.post(`/v1/game/${gameId}/stop`, {});
  expect(refused.status()).toBe(403);
  await expect(bob.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING');

  // Alice makes "Potes" co-admins: Bob's open page offers the power buttons, and he restarts the server.
  await alice.goto(`${gamePath}/sharing`);
  await pickOption(alice.getByTestId('grant-Potes').getByRole('combobox', { name: 'Rôle de Potes' }), 'Co-admin');
  await expect(alice.getByTestId('notice')).toContainText('Potes est maintenant Co-admin.');
  await expect(bob.getByTestId('shared-by')).toHaveText(`Partagé par ${aliceName} · Co-admin`);
  await expect(bob.getByRole('tab', { name: 'Réglages' })).toBeVisible();
  await expect(bob.getByRole('tab', { name: 'Partage' })).toHaveCount(0);
  await bob.getByRole('button', { name: 'Redémarrer', exact: true }).click();
  const restarted = bob.waitForResponse((r) => r.url().endsWith('/restart') && r.request().method() === 'POST');
  await bob.getByRole('dialog').getByRole('button', { name: 'Redémarrer', exact: true }).click();
  expect((await restarted).status()).toBeLessThan(300);
  await expect(bob.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });

  // Alice's Activité tab says who did what: Bob's kick as a moderator, his restart as a co-admin.
  await alice.goto(gamePath);
  await openTab(alice, 'Activité');
  const actions = alice.getByTestId('activity-action');
  await expect(actions.filter({ hasText: 'A redémarré le serveur' })).toHaveCount(1);
  const rows = alice.getByRole('row');
  await expect(rows.filter({ hasText: 'A redémarré le serveur' })).toContainText(`${bobName}Co-admin`);
  await expect(rows.filter({ hasText: `A expulsé ${player}` })).toContainText(`${bobName}Modérateur`);
  await expect(rows.filter({ hasText: 'A partagé le serveur (Modérateur)' })).toContainText(`${aliceName}Propriétaire`);
  for (const lang of ['fr', 'en'] as const) {
    await picturesInEachLook(
      alice,
      async () => {
        await alice.goto(`${lang === 'fr' ? '' : '/en'}${gamePath}/activity`);
        await expect(actions.first()).toBeVisible();
      },
      ({ theme, label }) => shoot(alice, { path: `${SHOTS}/activity-${lang}-${label}-${theme}.png`, fullPage: true }),
    );
  }

  // Alice takes Bob out of "Potes": his open page says the server is not there for him.
  const removed = await alice.request.delete(`/v1/friend/group/${groupId}/member`, { headers: { authorization: `Bearer ${aliceToken}` }, data: { userId: bobId } });
  expect(removed.status()).toBe(204);
  await expect(bob.getByText('Ce serveur n’existe pas, ou il n’est pas à vous.')).toBeVisible();
  await bob.goto('/dashboard');
  await expect(bob.getByText('Vous n’avez pas encore de serveur')).toBeVisible();
  await expect(bob.getByTestId('shared-game-item')).toHaveCount(0);

  // Alice stops her server for the next tests.
  await alice.goto(gamePath);
  await alice.getByRole('button', { name: 'Arrêter', exact: true }).click();
  const stopped = alice.waitForResponse((r) => r.url().endsWith('/stop') && r.request().method() === 'POST');
  await alice.getByRole('dialog').getByRole('button', { name: 'Arrêter', exact: true }).click();
  expect((await stopped).status()).toBeLessThan(300);
  await expect(alice.getByTestId('game-status').first()).toHaveAttribute('data-status', 'STOPPED', { timeout: 60_000 });
});
