import type { Page } from '@playwright/test';
import { join, kicked } from '../fixtures/minecraft.ts';
import { expect, gameServerPid, shoot, shotsInEachLook, test } from './fixtures.ts';

const shots = 'test-results/games';

async function signInAsAlice(page: Page) {
  await expect(page).toHaveURL(/\/oidc\/interaction\//);
  await page.getByLabel("Nom d'utilisateur ou e-mail").fill('alice');
  await page.getByLabel('Mot de passe').fill('Creeper-2026!');
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

/** Each page at 1280 and 375 px, in the light and the dark theme. */
function screenshots(page: Page, name: string, path: string, ready: (page: Page) => Promise<void>) {
  return shotsInEachLook(page, shots, name, () => page.goto(path).then(() => ready(page)));
}

test('alice buys a server from the catalogue and starts it from its control panel', { tag: '@game-server' }, async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The public catalogue: the three seeded games, in French (other specs on the shared server may
  // have published more by now).
  const seeded = async (p: Page) => {
    for (const name of ['Survie', 'Créatif', 'Mini-jeux classiques']) await expect(p.getByTestId('game-card').filter({ hasText: name })).toHaveCount(1);
  };
  await page.goto('/store');
  await expect(page.getByRole('heading', { name: 'Catalogue', level: 1 })).toBeVisible();
  await seeded(page);
  await expect(page.getByTestId('game-card').filter({ hasText: 'Survie' })).toContainText('À partir de 100 crédits');
  await page.goto('/en/store');
  await expect(page.getByTestId('game-card').filter({ hasText: 'Survival' })).toContainText('From 100 credits');
  await page.goto('/store');
  await screenshots(page, 'store', '/store', seeded);

  // The product page, signed out: packages, and the call to sign in to create a server.
  await page.getByTestId('game-card').filter({ hasText: 'Survie' }).click();
  await expect(page).toHaveURL(/\/products\/[0-9a-f-]{36}$/);
  const productPath = new URL(page.url()).pathname;
  const definitionId = productPath.split('/').pop()!;
  await expect(page.getByRole('heading', { name: 'Survie', level: 1 })).toBeVisible();
  await expect(page.getByRole('table')).toContainText('Moyen');
  await screenshots(page, 'product-signed-out', productPath, async (p) => {
    await expect(p.getByTestId('create-cta')).toBeVisible();
  });

  // Signing in from the call to action comes back to the creation page.
  await page.getByRole('button', { name: 'Se connecter pour créer mon serveur' }).click();
  await signInAsAlice(page);
  await expect(page).toHaveURL(new RegExp(`/dashboard/creategame/${definitionId}$`));
  await expect(page.getByTestId('balance-after')).toHaveText('400 crédits');
  await screenshots(page, 'create', `/dashboard/creategame/${definitionId}`, async (p) => {
    await expect(p.getByTestId('balance-after')).toBeVisible();
  });

  await page.getByLabel('Nom du serveur').fill('Le monde d’Alice');
  await page.getByLabel('Message du jour (MOTD)').fill('Bienvenue chez Alice');
  await page.getByRole('button', { name: 'Payer 100 crédits et créer' }).click();

  // The control panel: start, confirm, then RUNNING with an address.
  await expect(page).toHaveURL(/\/dashboard\/game\/[0-9a-f-]{36}$/);
  const gamePath = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { name: 'Le monde d’Alice', level: 1 })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: '-100' })).toBeVisible();
  // The header's balance follows the purchase.
  await expect(page.getByTestId('credit-button')).toHaveText('400');
  await page.getByRole('button', { name: 'Démarrer', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Démarrer', exact: true }).click();
  await expect(page.getByTestId('game-status').first()).toHaveAttribute('data-status', 'RUNNING', { timeout: 90_000 });
  // By its name, through the game gateway, and the server's own address beside it.
  await expect(page.getByTestId('game-address')).toHaveText(/^alice-[a-z0-9-]+\.localhost:\d+$/);
  await expect(page.getByTestId('game-direct-address')).toHaveText(/^Adresse directe : [\w.-]+:\d+$/);
  // The control panel, running, for people to look at (test-results/screenshots/).
  await shoot(page, { path: 'test-results/screenshots/game-panel-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 740 });
  await shoot(page, { path: 'test-results/screenshots/game-panel-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  // No Mumble server configured (MUMBLE_HOST): no voice chat link that would lead nowhere.
  const voice = page.getByRole('link', { name: 'Rejoindre le chat vocal (Mumble)' });
  await expect(voice).toHaveCount(0);
  // With one, the link names its host, its port and the game's own channel.
  await page.route('**/app-config.json', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), mumble: { host: 'voice.example.com', port: 64738 } } });
  });
  await page.reload();
  await expect(voice).toHaveAttribute('href', `/mumble-redirect/voice.example.com%3A64738?channel=${encodeURIComponent('Le monde d’Alice')}`);
  await page.unroute('**/app-config.json');

  // A real client joins at the address shown (its name, sent in the handshake as a client typing it
  // would); the owner sees it online and kicks it, after confirming.
  const [host, gatewayPort] = (await page.getByTestId('game-address').textContent())!.split(':');
  const joined = await join(Number(gatewayPort), 'Alex_e2e', '1.21.4', 60_000, host);
  expect(joined.joined).toBe(true);
  const online = page.getByRole('listitem').filter({ hasText: 'Alex_e2e' });
  await expect(online).toBeVisible({ timeout: 20_000 });
  const gone = joined.joined ? kicked(joined.bot) : Promise.resolve('');
  await online.getByRole('button', { name: 'Expulser' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Expulser' }).click();
  await gone;
  await expect(page.getByText('Alex_e2e a été expulsé.')).toBeVisible();

  // A player list: add a name to the whitelist.
  await page.getByLabel('Pseudo Minecraft').fill('Steve_42');
  await page.getByRole('button', { name: 'Ajouter' }).click();
  await expect(page.getByText('Steve_42')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Tout le monde peut entrer' }).click();
  await expect(page.getByRole('checkbox', { name: 'Seuls les joueurs de la liste blanche peuvent entrer' })).toBeChecked();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Seuls les joueurs de la liste blanche peuvent entrer' })).toBeChecked();

  // A server that misses a look (here paused) shows as starting; answering again, it shows running
  // without a reload, though nothing changed on record.
  const status = page.getByTestId('game-status').first();
  const pid = gameServerPid(gamePath.split('/').pop()!);
  process.kill(pid, 'SIGSTOP');
  try {
    await page.reload();
    await expect(status).toHaveAttribute('data-status', 'STARTING', { timeout: 20_000 });
  } finally {
    process.kill(pid, 'SIGCONT');
  }
  await expect(status).toHaveAttribute('data-status', 'RUNNING', { timeout: 30_000 });

  await screenshots(page, 'game', gamePath, async (p) => {
    await expect(p.getByTestId('game-address')).toBeVisible({ timeout: 15_000 });
  });

  // Stopping asks first, then the server saves and stops.
  await page.getByRole('button', { name: 'Arrêter' }).click();
  await expect(page.getByRole('dialog')).toContainText('les joueurs en ligne seront déconnectés');
  await page.getByRole('dialog').getByRole('button', { name: 'Arrêter' }).click();
  await expect(page.getByTestId('game-status').first()).toHaveAttribute('data-status', 'STOPPED', { timeout: 60_000 });
  await expect(page.getByText('Disponible quand le serveur tourne')).toBeVisible();

  // The dashboard lists the server; the product page, signed in, offers the review form.
  await page.goto('/dashboard');
  await expect(page.getByTestId('game-item')).toContainText('Le monde d’Alice');
  await expect(page.getByTestId('game-item').getByTestId('game-status')).toHaveAttribute('data-status', 'STOPPED');
  await page.goto(`/dashboard/products/${definitionId}`);
  await expect(page.getByRole('heading', { name: 'Donner mon avis' })).toBeVisible();
  await page.locator('label', { hasText: '4 étoiles' }).click();
  await expect(page.getByRole('radio', { name: '4 étoiles' })).toBeChecked();
  await page.getByLabel('Commentaire (facultatif)').fill('Démarré en quelques secondes.');
  await page.getByRole('button', { name: 'Publier mon avis' }).click();
  await expect(page.getByText('Merci ! Votre avis est publié.')).toBeVisible();
  await expect(page.getByTestId('review')).toContainText('Démarré en quelques secondes.');
  // Reviewed once: the form is gone.
  await page.reload();
  await expect(page.getByTestId('review')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Donner mon avis' })).toHaveCount(0);
  await screenshots(page, 'product-signed-in', `/dashboard/products/${definitionId}`, async (p) => {
    await expect(p.getByTestId('review')).toBeVisible();
  });

  // Too few credits: the API's 402 is explained, with a way to buy credits.
  await page.goto('/dashboard');
  await expect(page.getByTestId('user-balance')).toContainText('400');
  await shoot(page, { path: `${shots}/dashboard-desktop-light.png`, fullPage: true });
  await page.goto(`/dashboard/creategame/${definitionId}`);
  await page.getByRole('radio', { name: /Grand/ }).check();
  await page.getByLabel('Nom du serveur').fill('Deuxième monde');
  await page.getByRole('button', { name: 'Payer 320 crédits et créer' }).click();
  await expect(page).toHaveURL(/\/dashboard\/game\//);
  await page.goto(`/dashboard/creategame/${definitionId}`);
  await page.getByRole('radio', { name: /Grand/ }).check();
  await expect(page.getByTestId('balance-after')).toHaveText('-240 crédits');
  await page.getByLabel('Nom du serveur').fill('Un monde de trop');
  await page.getByRole('button', { name: 'Payer 320 crédits et créer' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'Vous n’avez pas assez de crédits' });
  await expect(refused).toBeVisible();
  // To /credits, and back to this form afterwards.
  await expect(refused.getByRole('link', { name: 'Acheter des crédits' })).toHaveAttribute('href', `/credits?back=${encodeURIComponent(`/dashboard/creategame/${definitionId}`)}`);
  await shoot(page, { path: `${shots}/create-402-desktop-light.png`, fullPage: true });
});

test("the create form shows the API's word for a field under that field, and keeps one Idempotency-Key while the same purchase is retried", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard');
  await signInAsAlice(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/dashboard/store');
  await page.getByTestId('game-card').filter({ hasText: 'Survie' }).click();
  await page.getByTestId('create-cta').click();
  await page.getByLabel('Nom du serveur').fill('Monde refusé');
  await page.getByLabel('Graine du monde').fill('graine-42');

  // The purchase's answer is lost once, then the API refuses a field: the API never buys here.
  const keys: string[] = [];
  let attempt = 0;
  await page.route('**/v1/game/create', async (route) => {
    keys.push((await route.request().headerValue('idempotency-key')) ?? '');
    if (attempt++ === 0) return route.abort('connectionreset');
    const errors = [{ field: 'settings.seed', message: 'contient un caractère refusé' }];
    return route.fulfill({
      status: 400,
      contentType: 'application/problem+json',
      body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Invalid settings.seed', errors }),
    });
  });
  const pay = page.getByRole('button', { name: /^Payer .* et créer$/ });
  await pay.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Le serveur est injoignable' })).toBeVisible();
  await pay.click();
  const seed = page.getByLabel('Graine du monde');
  await expect(seed).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('contient un caractère refusé')).toBeVisible();
  // The same purchase sent again after a lost answer carries the same key; after a definite answer, a new one.
  await pay.click();
  await expect.poll(() => keys.length).toBe(3);
  expect(keys[1]).toBe(keys[0]);
  expect(keys[2]).not.toBe(keys[1]);
  await expect(page).toHaveURL(/\/dashboard\/creategame\//);
});
