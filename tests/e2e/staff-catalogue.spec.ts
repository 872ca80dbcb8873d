import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { accessToken, accounts, chooseIn, desktopChecks, expect, inEachLook, pickOption, seriousViolations, shoot, signedIn, signIn, signUp, test } from './fixtures.ts';

const run = Date.now().toString(36).toUpperCase();

test('the back office opens for staff from the account menu, read-only for support, and answers 403 to a player', async ({ browser }) => {
  const staff = await (await browser.newContext()).newPage();
  await staff.setViewportSize({ width: 1280, height: 900 });
  await signIn(staff, accounts.staff);
  await chooseIn(staff.getByRole('button', { name: 'Menu du compte' }), staff.getByRole('menuitem', { name: 'Back-office' }));
  await expect(staff).toHaveURL(/\/dashboard\/staff\/definitions(\?.*)?$/);
  const menu = staff.getByTestId('staff-menu');
  for (const group of ['Catalogue', 'Ventes', 'Joueurs', 'Support']) await expect(menu.getByText(group, { exact: true })).toBeVisible();
  await menu.getByRole('link', { name: 'Codes promo' }).click();
  await expect(staff).toHaveURL(/\/dashboard\/staff\/promocodes(\?.*)?$/);
  // The English pages keep their prefix through the menu.
  await staff.goto('/en/dashboard/staff/definitions');
  await staff.getByTestId('staff-menu').getByRole('link', { name: 'Credit packs' }).click();
  await expect(staff).toHaveURL(/\/en\/dashboard\/staff\/packs(\?.*)?$/);
  await staff.context().close();

  const player = await (await browser.newContext()).newPage();
  await signIn(player, accounts.alice);
  await player.getByRole('button', { name: 'Menu du compte' }).click();
  await expect(player.getByRole('menuitem', { name: 'Mon Compte' })).toBeVisible();
  await expect(player.getByRole('menuitem', { name: 'Back-office' })).toHaveCount(0);
  await player.goto('/dashboard/staff/definitions');
  await expect(player.getByTestId('error-status')).toHaveText('403');
  await expect(player.getByTestId('staff-menu')).toHaveCount(0);
  await player.context().close();

  const reader = await (await browser.newContext()).newPage();
  await signIn(reader, accounts.support, '/dashboard/staff/definitions');
  await expect(reader.getByTestId('staff-menu')).toBeVisible();
  await reader.context().close();
});

/** A PNG drawn for the test (800 × 450, two colours), as a file the picker takes. */
async function pngFile(name: string) {
  const buffer = await sharp({ create: { width: 800, height: 450, channels: 3, background: '#2e7d32' } })
    .composite([{ input: { create: { width: 400, height: 450, channels: 3, background: '#7b1fa2' } }, left: 400, top: 0 }])
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

test('staff create a definition with an image and two packages, publish it, players find it in the store; a definition in use cannot be deleted', async ({ browser }) => {
  test.setTimeout(180_000);
  const name = { fr: `Parkour ${run}`, en: `Parkour ${run} EN` };
  const staff = await signedIn(browser, accounts.staff, '/dashboard/staff/definitions');
  await staff.getByRole('link', { name: 'Nouvelle définition' }).click();
  await expect(staff).toHaveURL(/\/dashboard\/staff\/definitions\/create$/);
  await staff.getByLabel('Nom (français)').fill(name.fr);
  await staff.getByLabel('Nom (anglais)').fill(name.en);
  await staff.getByLabel('Description (français)').fill('Des sauts, des chronos et des checkpoints.');
  await staff.getByLabel('Description (anglais)').fill('Jumps, timers and checkpoints.');
  await pickOption(staff.getByLabel('Mode de jeu'), 'Aventure');
  // Files the API would refuse are refused here, before any upload.
  const picker = staff.getByTestId('image-file');
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expect(staff.getByTestId('image-error')).toHaveText('Ce fichier n’est pas une image PNG, JPEG ou WebP.');
  await picker.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(6 * 1024 * 1024) });
  await expect(staff.getByTestId('image-error')).toHaveText('Cette image pèse 6.0 Mo : 5 Mo au plus.');
  await picker.setInputFiles(await pngFile('parkour.png'));
  await expect(staff.getByTestId('image-error')).toHaveCount(0);
  await expect(staff.getByTestId('image-preview')).toBeVisible();
  await staff.getByRole('button', { name: 'Enregistrer' }).click();

  // Created as a draft, with its image stored by the API; its packages are added on its edit page.
  await expect(staff).toHaveURL(/\/dashboard\/staff\/definitions\/edit\/[0-9a-f-]{36}$/);
  const id = /edit\/([0-9a-f-]{36})$/.exec(staff.url())![1]!;
  await expect(staff.getByTestId('image-preview')).toHaveAttribute('src', /^\/media\/definitions\/[0-9a-f]{32}-1x\.webp$/);
  await expect(staff.getByLabel('Nom (français)')).toHaveValue(name.fr);
  const rows = staff.getByTestId('package-row');
  await staff.getByRole('button', { name: 'Ajouter une offre' }).click();
  await rows.nth(0).getByLabel('Nom (français)').fill('Solo');
  await rows.nth(0).getByLabel('Nom (anglais)').fill('Solo');
  await rows.nth(0).getByLabel('Prix (crédits)').fill('-5');
  await rows.nth(0).getByRole('button', { name: 'Enregistrer l’offre' }).click();
  // The API's word on the field it refused shows under that field.
  await expect(rows.nth(0).getByText('doit être supérieur ou égal à 0')).toBeVisible();
  await rows.nth(0).getByLabel('Prix (crédits)').fill('40');
  await rows.nth(0).getByRole('button', { name: 'Enregistrer l’offre' }).click();
  await expect(staff.getByText('Offre Solo enregistrée')).toBeVisible();
  await staff.getByRole('button', { name: 'Ajouter une offre' }).click();
  await rows.nth(1).getByLabel('Nom (français)').fill('Équipe');
  await rows.nth(1).getByLabel('Nom (anglais)').fill('Team');
  await rows.nth(1).getByLabel('Joueurs').fill('20');
  await rows.nth(1).getByLabel('Prix (crédits)').fill('90');
  await rows.nth(1).getByRole('button', { name: 'Enregistrer l’offre' }).click();
  await expect(staff.getByText('Offre Équipe enregistrée')).toBeVisible();
  await expect(rows.nth(1).getByRole('button', { name: 'Enregistrer l’offre' })).toBeDisabled();
  // A saved package changes in place.
  await rows.nth(0).getByLabel('Prix (crédits)').fill('45');
  await rows.nth(0).getByRole('button', { name: 'Enregistrer l’offre' }).click();
  await expect(rows.nth(0).getByRole('button', { name: 'Enregistrer l’offre' })).toBeDisabled();

  // Nobody sees a draft in the store; published, it is there with its image and price.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto('/store');
  await expect(visitor.getByText('Survie').first()).toBeVisible();
  await expect(visitor.getByText(name.fr)).toHaveCount(0);
  await staff.getByLabel('Publiée').check();
  await staff.getByRole('button', { name: 'Enregistrer', exact: true }).click();
  await expect(staff).toHaveURL(new RegExp(`/dashboard/staff/definitions/show/${id}$`));
  await expect(staff.getByRole('heading', { name: name.fr }).first()).toBeVisible();
  await expect(staff.getByRole('row', { name: /Équipe/ })).toContainText('90');
  await expect(staff.getByRole('row', { name: /Solo/ })).toContainText('45');
  await visitor.goto('/store');
  const card = visitor.locator('.MuiCard-root', { hasText: name.fr });
  await expect(card).toBeVisible();
  await expect(card.locator('img')).toHaveAttribute('src', /^\/media\/definitions\//);
  await visitor.context().close();

  // Once a server is made from it, the definition cannot be deleted, and staff are told why.
  const alice = await signedIn(browser, accounts.alice);
  const definition = (await (await alice.request.get(`/v1/definition/game/${id}`)).json()) as { packages: Array<{ id: string; name: { fr: string } }> };
  const solo = definition.packages.find((p) => p.name.fr === 'Solo')!;
  const made = await alice.request.post('/v1/game/create', {
    headers: { authorization: `Bearer ${await accessToken(alice)}` },
    data: { definitionId: id, packageId: solo.id, name: `parkour-${run.toLowerCase()}` },
  });
  expect(made.status()).toBe(201);
  await alice.context().close();
  await staff.getByRole('button', { name: 'Supprimer' }).click();
  await expect(staff.getByRole('dialog')).toContainText(`Supprimer ${name.fr} et ses offres ?`);
  await staff.getByRole('dialog').getByRole('button', { name: 'Supprimer' }).click();
  await expect(staff.getByText('Des serveurs ont été créés à partir de cette définition : elle ne peut pas être supprimée. Dépubliez-la plutôt.')).toBeVisible();
  await staff.goto('/dashboard/staff/definitions');
  await expect(staff.getByRole('row', { name: new RegExp(name.fr) })).toContainText('Publiée');
  await staff.context().close();
});

test('staff put a pack on sale, change its price and take it off sale, as /credits shows; make a promo code a player then uses; the API refuses bad values on their fields', async ({ browser }) => {
  test.setTimeout(240_000);
  const label = `Essai ${run}`;
  const code = `FETE${run}`;
  const staff = await signedIn(browser, accounts.staff, '/dashboard/staff/packs');

  // A new pack: a price under the API's minimum is refused on the price field, then a good one is saved.
  await staff.getByRole('link', { name: 'Nouveau pack' }).click();
  // The label in French only: the English one is asked for, on its field.
  await staff.getByLabel('Libellé (français)').fill(label);
  await staff.getByRole('spinbutton', { name: 'Crédits', exact: true }).fill('250');
  await staff.getByRole('textbox', { name: 'Prix', exact: true }).fill('2,50');
  await staff.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(staff.getByLabel('Libellé (anglais)')).toHaveAccessibleDescription('Obligatoire');
  await expect(staff).toHaveURL(/\/packs\/create$/);
  await staff.getByLabel('Libellé (anglais)').fill(`Trial ${run}`);
  await staff.getByRole('spinbutton', { name: 'Crédits', exact: true }).fill('250');
  await staff.getByRole('textbox', { name: 'Prix', exact: true }).fill('0,10');
  await staff.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(staff.getByText('doit être supérieur ou égal à 50')).toBeVisible();
  await expect(staff).toHaveURL(/\/packs\/create$/);
  await staff.getByRole('textbox', { name: 'Prix', exact: true }).fill('2,50');
  await staff.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(staff).toHaveURL(/\/dashboard\/staff\/packs(\?.*)?$/);
  const packRow = staff.getByRole('row', { name: new RegExp(label) });
  await expect(packRow).toContainText('2,50');
  await packRow.getByRole('link', { name: 'Modifier' }).click();
  await expect(staff.getByRole('textbox', { name: 'Prix', exact: true })).toHaveValue('2.50');
  await staff.getByRole('textbox', { name: 'Prix', exact: true }).fill('1,99');
  await staff.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(staff).toHaveURL(/\/dashboard\/staff\/packs(\?.*)?$/);
  await expect(packRow).toContainText('1,99');

  const player = await signUp(browser, `promo_${run.toLowerCase()}`);
  await player.goto('/credits');
  await expect(player.getByTestId('credit-pack').filter({ hasText: label })).toContainText('1,99');
  // The English page shows the English label.
  await player.goto('/en/credits');
  await expect(player.getByTestId('credit-pack').filter({ hasText: `Trial ${run}` })).toContainText('€1.99');
  await expect(player.getByTestId('credit-pack').filter({ hasText: label })).toHaveCount(0);

  // A promo code: a value of 0 is refused on its field, a code taken already on the code's.
  await staff.goto('/dashboard/staff/promocodes');
  await staff.getByRole('link', { name: 'Nouveau code' }).click();
  await staff.getByRole('textbox', { name: 'Code', exact: true }).fill(code.toLowerCase());
  await pickOption(staff.getByLabel('Type'), 'Crédits offerts sur un pack');
  await staff.getByRole('spinbutton', { name: 'Crédits offerts' }).fill('0');
  await staff.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(staff.getByText('doit être supérieur ou égal à 1')).toBeVisible();
  await staff.getByRole('spinbutton', { name: 'Crédits offerts' }).fill('75');
  await staff.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(staff).toHaveURL(/\/dashboard\/staff\/promocodes(\?.*)?$/);
  const codeRow = staff.getByRole('row', { name: new RegExp(code) });
  await expect(codeRow).toContainText('+ 75 crédits');
  await expect(codeRow).toContainText('Actif');
  await staff.getByRole('link', { name: 'Nouveau code' }).click();
  await staff.getByRole('textbox', { name: 'Code', exact: true }).fill(code);
  await staff.getByRole('spinbutton', { name: 'Réduction (%)' }).fill('10');
  await staff.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(staff.getByText('Ce code existe déjà : choisissez-en un autre.')).toBeVisible();

  // The player's pack comes with the code's bonus.
  await player.goto('/credits');
  await player.getByTestId('credit-pack').filter({ hasText: 'Découverte' }).getByRole('button', { name: 'Choisir ce pack' }).click();
  const summary = player.getByTestId('credits-summary');
  await summary.getByLabel('Code promo').fill(code);
  await summary.getByRole('button', { name: 'Appliquer' }).click();
  await expect(player.getByTestId('promo-ok')).toContainText(`Code ${code} : + 75 crédits offerts`);
  await player.getByTestId('credits-continue').click();
  await player.getByLabel('Numéro de carte').fill('4242 4242 4242 4242');
  await player.getByRole('button', { name: /^Payer 4,99/ }).click();
  await expect(player.getByTestId('credits-received')).toContainText('575 crédits ont été ajoutés à votre compte.');

  // The code's page names who used it; its limit can change after.
  await staff.goto('/dashboard/staff/promocodes');
  await codeRow.getByRole('link', { name: 'Voir' }).click();
  await expect(staff.getByTestId('promo-uses')).toContainText(`promo_${run.toLowerCase()}`);
  await staff.getByRole('link', { name: 'Modifier' }).click();
  await expect(staff.getByRole('spinbutton', { name: 'Crédits offerts' })).toHaveValue('75');
  await staff.getByLabel('Utilisations au plus').fill('5');
  await staff.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(staff).toHaveURL(new RegExp(`/promocodes/show/${code}$`));
  await expect(staff.getByText('1 / 5')).toBeVisible();

  // Taken off sale after a confirmation, the pack leaves /credits.
  await staff.goto('/dashboard/staff/packs');
  await packRow.getByRole('button', { name: 'Archiver' }).click();
  await expect(staff.getByRole('dialog')).toContainText(`Retirer le pack ${label} de la vente ?`);
  await staff.getByRole('dialog').getByRole('button', { name: 'Archiver' }).click();
  await expect(staff.getByText('Pack retiré de la vente')).toBeVisible();
  await player.goto('/credits');
  await expect(player.getByTestId('credit-pack').first()).toBeVisible();
  await expect(player.getByTestId('credit-pack').filter({ hasText: label })).toHaveCount(0);
  await player.context().close();
  await staff.context().close();
});

test('staff offer a subscription plan players can see, change it and archive it; support read the sales pages without write buttons', async ({ browser }) => {
  const name = { fr: `Abonnement annuel ${run}`, en: `Yearly plan ${run}` };
  const staff = await signedIn(browser, accounts.staff, '/dashboard/staff/plans');
  await expect(staff.getByRole('row', { name: /Abonnement mensuel/ })).toContainText('7,99');
  await staff.getByRole('link', { name: 'Nouvel abonnement' }).click();
  await staff.getByLabel('Nom (français)').fill(name.fr);
  await staff.getByLabel('Nom (anglais)').fill(name.en);
  await staff.getByRole('textbox', { name: 'Prix par période', exact: true }).fill('79');
  await pickOption(staff.getByRole('combobox', { name: /^Période/ }), 'Annuel');
  await staff.getByRole('spinbutton', { name: 'Crédits par période' }).fill('12000');
  await staff.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(staff).toHaveURL(/\/dashboard\/staff\/plans(\?.*)?$/);
  const row = staff.getByRole('row', { name: new RegExp(name.fr) });
  await expect(row).toContainText('79,00 € / an');
  await expect(row).toContainText('12');
  const offered = async () => ((await (await staff.request.get('/v1/subscription')).json()).data as Array<{ name: { fr: string }; priceCents: number }>).find((p) => p.name.fr === name.fr);
  expect((await offered())?.priceCents).toBe(7900);
  await row.getByRole('link', { name: 'Modifier' }).click();
  await expect(staff.getByRole('textbox', { name: 'Prix par période', exact: true })).toHaveValue('79.00');
  await staff.getByRole('textbox', { name: 'Prix par période', exact: true }).fill('69,90');
  await staff.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(row).toContainText('69,90 € / an');
  await row.getByRole('button', { name: 'Archiver' }).click();
  await expect(staff.getByRole('dialog')).toContainText(`Archiver l’abonnement ${name.fr} ?`);
  await staff.getByRole('dialog').getByRole('button', { name: 'Archiver' }).click();
  await expect(row).toContainText('Archivé');
  expect(await offered()).toBeUndefined();
  // A code for support to read.
  const made = await staff.request.post('/v1/promocode', { headers: { authorization: `Bearer ${await accessToken(staff)}` }, data: { code: `LIRE${run}`, kind: 'PERCENT_OFF', value: 5 } });
  expect(made.status()).toBe(201);
  await staff.context().close();

  // Support read every sales page; access control leaves them no button that writes.
  const reader = await signedIn(browser, accounts.support, '/dashboard/staff/promocodes');
  await expect(reader.getByRole('grid')).toBeVisible();
  for (const path of ['/dashboard/staff/definitions', '/dashboard/staff/packs', '/dashboard/staff/promocodes', '/dashboard/staff/plans']) {
    await reader.goto(path);
    await expect(reader.getByRole('row').nth(1)).toBeVisible();
    await expect(reader.getByRole('link', { name: /^Nouve/ })).toHaveCount(0);
    await expect(reader.getByRole('link', { name: 'Modifier' })).toHaveCount(0);
    await expect(reader.getByRole('button', { name: 'Archiver' })).toHaveCount(0);
  }
  await reader.goto('/dashboard/staff/promocodes');
  await reader
    .getByRole('row', { name: new RegExp(`LIRE${run}`) })
    .getByRole('link', { name: 'Voir' })
    .click();
  await expect(reader.getByRole('heading', { name: 'Qui l’a utilisé' })).toBeVisible();
  await expect(reader.getByText('Personne n’a encore utilisé ce code.')).toBeVisible();
  await reader.goto('/dashboard/staff/definitions');
  await reader.getByRole('link', { name: 'Voir' }).first().click();
  await expect(reader.getByRole('heading', { name: 'Offres' })).toBeVisible();
  await expect(reader.getByRole('button', { name: 'Supprimer' })).toHaveCount(0);
  await expect(reader.getByRole('link', { name: 'Modifier' })).toHaveCount(0);
  await reader.context().close();
});

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/staff-catalogue';

type StaffPage = [name: string, path: string, ready: () => Promise<void>];

/** Each page in both themes at 1280 px (and 375 px for the pictures), with no serious accessibility violation. */
async function checkPages(page: Page, pages: StaffPage[]) {
  for (const [name, path, ready] of pages) {
    await inEachLook(
      page,
      async () => {
        await page.goto(path);
        await ready();
      },
      async ({ theme, label }) => {
        await shoot(page, { path: `${SHOTS}/${name}-${label}-${theme}.png`, fullPage: true });
        if (label === 'desktop') expect((await seriousViolations(page, { theme })).map((line) => `${name} ${line}`)).toEqual([]);
      },
      desktopChecks,
    );
  }
}

// Two tests of five pages each: axe takes seconds a page, and the ten pages in one test came close
// to its time limit on a busy CI machine.
test('screenshots of the catalogue pages at 1280 and 375 px in both themes, with no serious accessibility violation', async ({ browser }) => {
  test.setTimeout(240_000);
  const page = await signedIn(browser, accounts.staff, '/dashboard/staff/definitions');
  const definitions = (await (await page.request.get('/v1/definition/game/list')).json()).data as Array<{ id: string; name: { fr: string }; packages: unknown[] }>;
  // Other specs on the shared server may add packages to Survie: the edit form shows as many as the API has.
  const survival = definitions.find((d) => d.name.fr === 'Survie')!;
  await checkPages(page, [
    ['definitions', '/dashboard/staff/definitions', () => expect(page.getByRole('row', { name: /Survie/ })).toBeVisible()],
    ['definition-show', `/dashboard/staff/definitions/show/${survival.id}`, () => expect(page.getByRole('row', { name: /Grand/ })).toBeVisible()],
    ['definition-edit', `/dashboard/staff/definitions/edit/${survival.id}`, () => expect(page.getByTestId('package-row')).toHaveCount(survival.packages.length)],
    ['definition-create', '/dashboard/staff/definitions/create', () => expect(page.getByLabel('Nom (français)')).toBeVisible()],
    ['definition-edit-en', `/en/dashboard/staff/definitions/edit/${survival.id}`, () => expect(page.getByLabel('Name (English)').first()).toHaveValue('Survival')],
  ]);
  await page.context().close();
});

test('screenshots of the sales pages and the phone menu at 1280 and 375 px in both themes, with no serious accessibility violation', async ({ browser }) => {
  test.setTimeout(240_000);
  const page = await signedIn(browser, accounts.staff, '/dashboard/staff/packs');
  await checkPages(page, [
    ['packs', '/dashboard/staff/packs', () => expect(page.getByRole('row', { name: /Découverte/ })).toBeVisible()],
    ['promocodes', '/dashboard/staff/promocodes', () => expect(page.getByRole('grid')).toBeVisible()],
    ['plans', '/dashboard/staff/plans', () => expect(page.getByRole('row', { name: /Abonnement mensuel/ })).toBeVisible()],
    ['plan-create', '/dashboard/staff/plans/create', () => expect(page.getByLabel('Nom (français)')).toBeVisible()],
    ['promocode-create-en', '/en/dashboard/staff/promocodes/create', () => expect(page.getByRole('combobox', { name: /^Kind/ })).toBeVisible()],
  ]);
  // The phone's menu, opened, in the dark theme.
  await page.evaluate(() => localStorage.setItem('preferredTheme', 'dark'));
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/dashboard/staff/packs');
  await page.getByTestId('staff-menu-button').click();
  await expect(page.getByRole('link', { name: 'Codes promo' })).toBeVisible();
  await shoot(page, { path: `${SHOTS}/menu-phone-dark.png` });
  await page.context().close();
});
