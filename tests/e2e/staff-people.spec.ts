import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { accessToken, accounts, apiAs, expect, followScripts, mintToken, pickOption, shotsInEachLook, signedIn, signIn, staffApi, test } from './fixtures.ts';

const SHOTS = 'test-results/staff-people';
const run = Date.now().toString(36);

/** The seeded staff member's token. */

/** A player made through the token CLI, with `credits` given by staff. */
async function makePlayer(request: APIRequestContext, name: string, credits = 0) {
  const player = apiAs(request, await mintToken(name));
  const me = (await (await player.get('/v1/user')).json()) as { id: string };
  if (credits) {
    const staff = await staffApi(request);
    expect((await staff.post('/v1/user/credit', { userId: me.id, amount: credits, reason: 'Welcome credits' })).status()).toBe(200);
  }
  return { id: me.id, name, api: player };
}

/** The page at 1280 and 375 px, in both themes, for a person to look at. */
function screenshots(page: Page, name: string, ready: (page: Page) => Promise<void>) {
  return shotsInEachLook(page, SHOTS, name, async () => {
    await page.reload();
    // The back office's chunk loads again after the reload: a busy machine takes a while.
    await expect(page.locator('main h1').first()).toBeVisible({ timeout: 20_000 });
    await ready(page);
  });
}

/** The rows of a data grid, in order. */
const rows = (page: Page, grid: string) => page.getByTestId(grid).locator('.MuiDataGrid-row');

/** What a list's address filters `field` on, in Refine's form (`filters[0][field]=userId&filters[0][value]=…`). */
function filteredOn(page: Page, field: string): string | null {
  const query = new URL(page.url()).searchParams;
  for (let i = 0; query.has(`filters[${i}][field]`); i++) if (query.get(`filters[${i}][field]`) === field) return query.get(`filters[${i}][value]`);
  return null;
}

test('staff add credits to a player with a reason, see the API refuse a bad amount and a balance below zero, and find the change in the audit log', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const player = await makePlayer(request, `credited_${run}`);
  const page = await signedIn(browser, accounts.staff, '/dashboard/staff/users');

  // Find the player by a prefix of their name and open their page.
  await page.getByTestId('users-search').fill(`credited_${run}`.slice(0, 12));
  await expect(rows(page, 'users-grid')).toHaveCount(1);
  await rows(page, 'users-grid').getByRole('link', { name: player.name }).click();
  await expect(page.getByRole('heading', { level: 1, name: player.name })).toBeVisible();
  await expect(page.getByTestId('user-balance')).toHaveText('0 crédit');

  // A million and one credits: the API's own refusal shows on the amount field.
  await page.getByRole('button', { name: 'Crédits' }).click();
  const dialog = page.getByTestId('credit-dialog');
  await dialog.getByTestId('credit-amount').fill('1000001');
  await dialog.getByTestId('action-reason').fill('Too many');
  await dialog.getByRole('button', { name: 'Appliquer' }).click();
  await expect(dialog.getByText(/doit être inférieur ou égal à 1000000/)).toBeVisible();

  // 150 credits with a reason: the balance follows.
  await dialog.getByTestId('credit-amount').fill('150');
  await dialog.getByTestId('action-reason').fill(`Compensation for the outage ${run}`);
  await dialog.getByRole('button', { name: 'Appliquer' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${player.name} a maintenant 150 crédits.`)).toBeVisible();
  await expect(page.getByTestId('user-balance')).toHaveText('150 crédits');
  await expect(rows(page, 'user-ledger').first()).toContainText(`Compensation for the outage ${run}`);

  // Taking back more than the balance: asked first, then the 409 in words; nothing changes.
  await page.getByRole('button', { name: 'Crédits' }).click();
  await dialog.getByTestId('credit-amount').fill('-500');
  await dialog.getByTestId('action-reason').fill('Too much');
  await dialog.getByRole('button', { name: 'Appliquer' }).click();
  await expect(page.getByRole('dialog', { name: 'Reprendre des crédits ?' })).toContainText(`500 crédits seront retirés du solde de ${player.name}.`);
  await page.getByRole('button', { name: 'Les reprendre' }).click();
  await expect(dialog.getByTestId('action-error')).toHaveText('Le solde ne peut pas descendre sous zéro : 150 crédits à reprendre au plus.');
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await expect(page.getByTestId('user-balance')).toHaveText('150 crédits');

  // The audit log: the correction, by staff, with its reason; its page shows the balance before and after.
  await page.getByTestId('staff-menu').getByRole('link', { name: 'Journal d’audit' }).click();
  const entry = rows(page, 'audit-grid').filter({ hasText: `Compensation for the outage ${run}` });
  await expect(entry).toHaveCount(1);
  await screenshots(page, 'audit', async () => expect(entry).toHaveCount(1));
  await expect(entry).toContainText('Crédits modifiés');
  await expect(entry).toContainText('staff');
  await entry.getByRole('link', { name: 'Crédits modifiés' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Crédits modifiés' })).toBeVisible();
  await expect(page.getByTestId('audit-reason')).toHaveText(`Compensation for the outage ${run}`);
  await expect(page.getByTestId('audit-changes')).toBeVisible();
  await screenshots(page, 'audit-show', async (p) => expect(p.getByTestId('audit-changes')).toBeVisible());

  // The player sees their new balance.
  expect(((await (await player.api.get('/v1/user')).json()) as { balance: number }).balance).toBe(150);
  await page.context().close();
});

/** A player who bought a pack by card (sandbox), made a server and reviewed its game. */
async function makeCustomer(request: APIRequestContext, name: string) {
  const player = await makePlayer(request, name, 300);
  const packs = (await (await request.get('/v1/pricing')).json()) as { data: Array<{ id: string; credits: number }> };
  const checkout = (await (await player.api.post('/v1/payment/stripe', { pricingId: packs.data[0]!.id })).json()) as { paymentId: string };
  expect((await player.api.post(`/v1/payment/sandbox/${checkout.paymentId}/confirm`, { cardNumber: '4242424242424242' })).status()).toBe(200);
  const definitions = (await (await request.get('/v1/definition/game/list?size=100')).json()) as {
    data: Array<{ id: string; name: { fr: string }; packages: Array<{ id: string; priceCredits: number }> }>;
  };
  const definition = definitions.data.find((d) => d.packages.length > 0)!;
  const pack = [...definition.packages].sort((a, b) => a.priceCredits - b.priceCredits)[0]!;
  const created = await player.api.post('/v1/game/create', { definitionId: definition.id, packageId: pack.id, name: `Monde ${name}`, autoRenew: false });
  expect(created.status()).toBe(201);
  const game = (await created.json()) as { id: string };
  expect((await player.api.post('/v1/game/review', { definitionId: definition.id, rating: 2, comment: `Laggy tonight ${name}` })).status()).toBe(201);
  return { ...player, paymentId: checkout.paymentId, gameId: game.id };
}

test('staff refund a card payment after saying why and a confirmation; its invoice and credit note download as PDF files named after their numbers', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const customer = await makeCustomer(request, `buyer_${run}`);
  const page = await signedIn(browser, accounts.staff, '/dashboard/staff/payments');

  // Payments of this customer: the paid pack, its provider id; refund it after a confirmation.
  await page.getByTestId('payments-user').fill(customer.name);
  await page.getByRole('option', { name: new RegExp(customer.name) }).click();
  await expect(rows(page, 'payments-grid')).toHaveCount(1);
  await expect(rows(page, 'payments-grid')).toContainText('Payé');
  await expect(rows(page, 'payments-grid')).toContainText('sandbox');
  await screenshots(page, 'payments', async (p) => expect(rows(p, 'payments-grid')).toHaveCount(1));
  // The row's date opens the payment (its customer's name, next to it, opens the customer).
  await rows(page, 'payments-grid').locator(`a[href$="/payments/show/${customer.paymentId}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/payments/show/${customer.paymentId}$`));
  await expect(page.getByTestId('payment-provider-id')).not.toHaveText('—');
  await page.getByRole('button', { name: 'Rembourser' }).click();
  const refund = page.getByTestId('refund-dialog');
  await refund.getByRole('button', { name: 'Rembourser' }).click();
  await expect(refund.getByText('Obligatoire', { exact: true })).toBeVisible();
  await refund.getByTestId('action-reason').fill(`Bought by mistake, ${customer.name}`);
  await refund.getByRole('button', { name: 'Rembourser' }).click();
  await page.getByRole('dialog', { name: 'Rembourser ce paiement ?' }).getByRole('button', { name: 'Rembourser' }).click();
  await expect(refund).toBeHidden();
  // The sandbox plays the provider's refund event itself: the credits come back out of the balance.
  await expect(async () => {
    await page.getByRole('button', { name: 'Actualiser' }).click();
    await expect(page.getByTestId('payment-status')).toHaveText('Remboursé', { timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Rembourser' })).toHaveCount(0);
  await screenshots(page, 'payment-show', async (p) => expect(p.getByTestId('payment-status')).toHaveText('Remboursé'));

  // Its invoice and credit note; the PDF downloads with the staff member's token, named after its number.
  await page.getByTestId('staff-menu').getByRole('link', { name: 'Factures' }).click();
  await page.getByTestId('invoices-user').fill(customer.name);
  await page.getByRole('option', { name: new RegExp(customer.name) }).click();
  await expect(rows(page, 'invoices-grid')).toHaveCount(2);
  await expect(rows(page, 'invoices-grid').first()).toContainText('Avoir');
  await screenshots(page, 'invoices', async (p) => expect(rows(p, 'invoices-grid')).toHaveCount(2));
  const invoice = rows(page, 'invoices-grid').last();
  const number = (await invoice
    .getByText(/^BH-\d{4}-\d{6}$/)
    .first()
    .textContent())!;
  const download = page.waitForEvent('download');
  await invoice.getByRole('button', { name: `Télécharger ${number}` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${number}.pdf`);
  expect((await readFile((await file.path())!)).subarray(0, 5).toString()).toBe('%PDF-');

  await page.goto('/dashboard/staff/audit');
  await expect(rows(page, 'audit-grid').filter({ hasText: `Bought by mistake, ${customer.name}` })).toContainText('Paiement remboursé');
  await page.context().close();
});

test('staff give a server free days, stop it and hide then restore a review, each after saying why', { tag: '@game-server' }, async ({ browser, request }) => {
  test.setTimeout(180_000);
  const customer = await makeCustomer(request, `owner_${run}`);
  const page = await signedIn(browser, accounts.staff, '/dashboard/staff/users');

  // The customer's server: a bad number of days is refused on its field, 10 days move the period end.
  await page.goto(`/dashboard/staff/games/show/${customer.gameId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Monde ${customer.name}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Arrêter' })).toBeDisabled();
  const before = await page.getByTestId('game-period-end').textContent();
  await page.getByRole('button', { name: 'Jours offerts' }).click();
  const extend = page.getByTestId('extend-dialog');
  await extend.getByTestId('extend-days').fill('400');
  await extend.getByTestId('action-reason').fill('Sorry for the outage');
  await extend.getByRole('button', { name: 'Prolonger' }).click();
  await expect(extend.getByText(/doit être inférieur ou égal à 366/)).toBeVisible();
  await extend.getByTestId('extend-days').fill('10');
  await extend.getByRole('button', { name: 'Prolonger' }).click();
  await expect(extend).toBeHidden();
  await expect(page.getByTestId('game-period-end')).not.toHaveText(before!);
  await screenshots(page, 'game-show', async (p) => expect(p.getByTestId('game-period-end')).toBeVisible());

  // Once its owner starts it, staff may stop it: after a reason and a confirmation.
  expect((await customer.api.post(`/v1/game/${customer.gameId}/start`, {})).status()).toBe(200);
  await page.getByRole('button', { name: 'Actualiser' }).click();
  await page.getByRole('button', { name: 'Arrêter' }).click();
  const stop = page.getByTestId('stop-dialog');
  await stop.getByTestId('action-reason').fill('Spamming the chat');
  await stop.getByRole('button', { name: 'Arrêter le serveur' }).click();
  await expect(page.getByRole('dialog', { name: 'Arrêter ce serveur ?' })).toContainText(`${customer.name} recevra le motif.`);
  await page.getByRole('dialog', { name: 'Arrêter ce serveur ?' }).getByRole('button', { name: 'Arrêter le serveur' }).click();
  await expect(stop).toBeHidden();
  await expect(page.getByTestId('game-status')).toHaveText(/Arrêt en cours|Arrêté/);

  // The owner's other servers are one link away, filtered in the address.
  await page.getByRole('link', { name: customer.name }).first().click();
  await page.getByRole('link', { name: 'Tous ses serveurs' }).click();
  await expect(page).toHaveURL(/\/dashboard\/staff\/games\?/);
  await expect.poll(() => filteredOn(page, 'ownerId')).toBe(customer.id);
  await expect(rows(page, 'games-grid')).toHaveCount(1);
  // A bookmark of the list's address of before still opens it filtered.
  await page.goto(`/dashboard/staff/games?ownerId=${customer.id}`);
  await expect.poll(() => filteredOn(page, 'ownerId')).toBe(customer.id);
  await expect(rows(page, 'games-grid')).toHaveCount(1);
  await screenshots(page, 'games', async (p) => expect(rows(p, 'games-grid')).toHaveCount(1));
  await pickOption(page.getByTestId('games-status').locator('..'), 'En ligne');
  await expect(rows(page, 'games-grid')).toHaveCount(0);

  // The customer's review: hidden after a confirmation, found among the hidden ones, then restored.
  await page.getByTestId('staff-menu').getByRole('link', { name: 'Avis' }).click();
  const review = rows(page, 'reviews-grid').filter({ hasText: `Laggy tonight ${customer.name}` });
  await review.getByRole('button', { name: 'Masquer' }).click();
  await page.getByTestId('moderate-dialog').getByTestId('action-reason').fill('Insults another player');
  await page.getByTestId('moderate-dialog').getByRole('button', { name: 'Masquer' }).click();
  await page.getByRole('dialog', { name: 'Masquer cet avis ?' }).getByRole('button', { name: 'Masquer' }).click();
  await expect(review.getByTestId('hidden-reason')).toHaveText('Masqué : Insults another player');
  await pickOption(page.getByTestId('reviews-hidden').locator('..'), 'Masqués');
  await expect.poll(() => filteredOn(page, 'hidden')).toBe('true');
  await expect(review).toHaveCount(1);
  await expect(rows(page, 'reviews-grid').filter({ hasText: 'Visible' })).toHaveCount(0);
  await screenshots(page, 'reviews', async () => expect(review).toHaveCount(1));
  await review.getByRole('button', { name: 'Rétablir' }).click();
  await page.getByTestId('moderate-dialog').getByTestId('action-reason').fill('Apologised');
  await page.getByTestId('moderate-dialog').getByRole('button', { name: 'Rétablir' }).click();
  await expect(review).toHaveCount(0);

  // Each of these writes is in the audit log with its reason.
  await page.goto('/dashboard/staff/audit');
  for (const [action, reason] of [
    ['Jours offerts', 'Sorry for the outage'],
    ['Serveur arrêté', 'Spamming the chat'],
    ['Avis masqué', 'Insults another player'],
    ['Avis rétabli', 'Apologised'],
  ] as const)
    await expect(rows(page, 'audit-grid').filter({ hasText: reason })).toContainText(action);
  await page.context().close();
});

test('the users and transactions grids page, sort and filter on the server', async ({ browser, request }) => {
  test.setTimeout(180_000);
  // Twelve players sharing a name prefix, with balances 10, 20 ... 120.
  const prefix = `pg${run}`;
  const players = [];
  for (let i = 1; i <= 12; i++) players.push(await makePlayer(request, `${prefix}_${String(i).padStart(2, '0')}`, i * 10));
  const page = await signedIn(browser, accounts.staff, '/dashboard/staff/users');

  // Users: the prefix finds the twelve; ten a page; sorted by balance, highest first.
  await page.getByTestId('users-search').fill(prefix.toUpperCase());
  await expect.poll(() => filteredOn(page, 'q')).toBe(prefix.toUpperCase());
  await expect(rows(page, 'users-grid')).toHaveCount(12);
  await pickOption(page.getByTestId('users-grid').getByRole('combobox'), '10', { exact: true });
  await expect(rows(page, 'users-grid')).toHaveCount(10);
  await page.getByTestId('users-grid').getByRole('columnheader', { name: 'Solde' }).click();
  await expect(rows(page, 'users-grid').first()).toContainText(`${prefix}_01`);
  await page.getByTestId('users-grid').getByRole('columnheader', { name: 'Solde' }).click();
  await expect(rows(page, 'users-grid').first()).toContainText(`${prefix}_12`);
  await expect(page.getByTestId('users-grid')).toContainText('1–10 sur 12');
  await page.getByTestId('users-grid').getByRole('button', { name: 'Page suivante' }).click();
  await expect(rows(page, 'users-grid')).toHaveCount(2);
  await expect(rows(page, 'users-grid').last()).toContainText(`${prefix}_01`);
  await screenshots(page, 'users', async (p) => expect(rows(p, 'users-grid').first()).toBeVisible());

  // Transactions: one player's, then only the staff corrections; sorted by amount; paged.
  const staff = await staffApi(request);
  const target = players[11]!;
  for (let i = 1; i <= 11; i++) expect((await staff.post('/v1/user/credit', { userId: target.id, amount: i, reason: `Gift ${i} ${run}` })).status()).toBe(200);
  await page.goto('/dashboard/staff/transactions');
  await page.getByTestId('transactions-user').fill(target.name);
  await page.getByRole('option', { name: new RegExp(target.name) }).click();
  await expect.poll(() => filteredOn(page, 'userId')).toBe(target.id);
  await expect(page.getByTestId('transactions-grid')).toContainText('1–12 sur 12');
  await pickOption(page.getByTestId('transactions-kind').locator('..'), 'Correction de l’équipe');
  await expect(page.getByTestId('transactions-grid')).toContainText('1–12 sur 12');
  await page.getByTestId('transactions-grid').getByRole('columnheader', { name: 'Crédits' }).click();
  await expect(rows(page, 'transactions-grid').first()).toContainText(`Gift 1 ${run}`);
  await page.getByTestId('transactions-grid').getByRole('columnheader', { name: 'Crédits' }).click();
  await expect(rows(page, 'transactions-grid').first()).toContainText('Welcome credits');
  await pickOption(page.getByTestId('transactions-grid').getByRole('combobox'), '10', { exact: true });
  await page.getByTestId('transactions-grid').getByRole('button', { name: 'Page suivante' }).click();
  await expect(rows(page, 'transactions-grid')).toHaveCount(2);
  // A day with nothing in it: tomorrow.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await page.getByTestId('transactions-from').fill(tomorrow);
  await expect(rows(page, 'transactions-grid')).toHaveCount(0);
  await page.getByTestId('transactions-from').fill('');
  await expect(page.getByTestId('transactions-grid')).toContainText('sur 12');
  await screenshots(page, 'transactions', async (p) => expect(rows(p, 'transactions-grid').first()).toBeVisible());
  await page.context().close();
});

test('support browses the transactions and a user’s page with no write button anywhere, and a forged write is refused', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const customer = await makeCustomer(request, `helped_${run}`);
  const page = await signedIn(browser, accounts.support, '/dashboard/staff/transactions');
  await expect(rows(page, 'transactions-grid').first()).toBeVisible();
  await rows(page, 'transactions-grid').filter({ hasText: customer.name }).first().getByRole('link', { name: customer.name }).click();
  await expect(page.getByRole('heading', { level: 1, name: customer.name })).toBeVisible();
  await expect(page.getByTestId('user-balance')).toBeVisible();
  await expect(rows(page, 'user-ledger').first()).toBeVisible();
  await screenshots(page, 'user-show-support', async (p) => expect(rows(p, 'user-ledger').first()).toBeVisible());

  // No write anywhere: credits, stop, free days, refund, hide, restore, create.
  const writes = /^(Crédits|Arrêter|Jours offerts|Rembourser|Masquer|Rétablir|Créer)$/;
  // The access checks run in the page, without a request: once it is idle with its code loaded, they have answered.
  const scripts = followScripts(page);
  const noWrites = async () => {
    await expect(page.locator('main h1').first()).toBeVisible();
    await scripts.settled();
    await expect(page.getByRole('button', { name: writes })).toHaveCount(0);
  };
  await noWrites();
  for (const url of [
    `/dashboard/staff/games/show/${customer.gameId}`,
    `/dashboard/staff/payments/show/${customer.paymentId}`,
    '/dashboard/staff/reviews',
    '/dashboard/staff/users',
    '/dashboard/staff/games',
    '/dashboard/staff/payments',
    '/dashboard/staff/invoices',
    '/dashboard/staff/audit',
  ]) {
    await page.goto(url);
    await noWrites();
  }

  // The API refuses support's forged writes.
  const token = await accessToken(page);
  const forged = await page.evaluate(
    async ({ token, userId, gameId, paymentId }) => {
      const post = (url: string, body: object) =>
        fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.status);
      return [
        await post('/v1/user/credit', { userId, amount: 1000, reason: 'Forged' }),
        await post(`/v1/staff/games/${gameId}/extend`, { days: 30, reason: 'Forged' }),
        await post(`/v1/staff/payments/${paymentId}/refund`, { reason: 'Forged' }),
      ];
    },
    { token, userId: customer.id, gameId: customer.gameId, paymentId: customer.paymentId },
  );
  expect(forged).toEqual([403, 403, 403]);

  // The same pages in English.
  await page.goto(`/en/dashboard/staff/users/show/${customer.id}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Credit ledger' })).toBeVisible();
  await expect(page.getByTestId('user-ledger').getByRole('columnheader', { name: 'Balance after' })).toBeVisible();
  await page.getByTestId('staff-menu').getByRole('link', { name: 'Transactions' }).click();
  await expect(page).toHaveURL(/\/en\/dashboard\/staff\/transactions(\?.*)?$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
  await expect(page.getByText('Staff correction').first()).toBeVisible();
  expect(((await (await customer.api.get('/v1/user')).json()) as { balance: number }).balance).toBeLessThan(1000);
  await page.context().close();
});

test('a player has no back-office entry, gets the 403 page under /dashboard/staff, and every /v1/staff call answers 403', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, accounts.alice);
  await page.getByRole('button', { name: 'Menu du compte' }).click();
  await expect(page.getByRole('menuitem', { name: 'Mon Compte' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Back-office' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  for (const url of ['/dashboard/staff', '/dashboard/staff/users', '/dashboard/staff/transactions', '/en/dashboard/staff/audit']) {
    await page.goto(url);
    await expect(page.getByTestId('error-status')).toHaveText('403');
    await expect(page.getByTestId('staff-menu')).toHaveCount(0);
  }
  const id = randomUUID();
  const statuses = await page.evaluate(
    async ({ token, id }) => {
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const reads = ['users', `users/${id}`, 'games', `games/${id}`, 'transactions', 'payments', `payments/${id}`, 'invoices', `invoices/${id}`, 'reviews', 'audit'];
      const writes = [`games/${id}/stop`, `games/${id}/extend`, `payments/${id}/refund`, `reviews/${id}/hide`, `reviews/${id}/restore`];
      const out: Record<string, number> = {};
      for (const r of reads) out[`GET ${r}`] = (await fetch(`/v1/staff/${r}`, { headers })).status;
      for (const w of writes) out[`POST ${w}`] = (await fetch(`/v1/staff/${w}`, { method: 'POST', headers, body: JSON.stringify({ reason: 'x', days: 1 }) })).status;
      out['POST user/credit'] = (await fetch('/v1/user/credit', { method: 'POST', headers, body: JSON.stringify({ userId: id, amount: 1, reason: 'x' }) })).status;
      return out;
    },
    { token: await accessToken(page), id },
  );
  expect(Object.entries(statuses).filter(([, status]) => status !== 403)).toEqual([]);
  expect(Object.keys(statuses)).toHaveLength(17);
  await page.context().close();
});
