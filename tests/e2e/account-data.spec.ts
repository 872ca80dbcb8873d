import fs from 'node:fs';
import { expect, picturesInEachLook, shoot, signUp, test } from './fixtures.ts';

const SHOTS = 'test-results/account-data';
const run = Date.now().toString(36);

test('a player asks for a copy of their data, is told when it is ready, and downloads one JSON file about them', async ({ browser }) => {
  const name = `gdpr_${run}`;
  const page = await signUp(browser, name, '/dashboard/account');
  const card = page.getByTestId('data-export-card');
  await expect(card.getByRole('heading', { name: 'Mes données' })).toBeVisible();
  await card.getByRole('button', { name: 'Préparer une copie de mes données' }).click();
  // Built in the background within a minute: the bell rings and the card shows it ready.
  await expect(card.getByText('Prête', { exact: true })).toBeVisible();
  await expect(page.getByTestId('notification-bell')).toContainText('1');
  await picturesInEachLook(
    page,
    () => page.goto('/dashboard/account#data'),
    ({ theme, label }) => shoot(card, { path: `${SHOTS}/data-card-${label}-${theme}.png` }),
  );

  type Data = { profile: { name: string; email: string }; games: unknown[]; notifications: Array<{ data: { title: string } }> };
  // The newest export, as the browser saves it.
  const downloadNewest = async (): Promise<Data> => {
    const saved = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Télécharger' }).first().click();
    const download = await saved;
    expect(download.suggestedFilename()).toMatch(/^blockhost-data-\d{4}-\d\d-\d\d\.json$/);
    return JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as Data;
  };
  const first = await downloadNewest();
  expect(first.profile).toMatchObject({ name, email: `${name}@example.com` });
  expect(first.games).toEqual([]);
  expect(first.notifications).toEqual([]);

  // Another copy is one more line, newest first, and holds the notice that told of the first.
  await card.getByRole('button', { name: 'Préparer une copie de mes données' }).click();
  await expect(card.getByText('Prête', { exact: true })).toHaveCount(2);
  const second = await downloadNewest();
  expect(second.notifications.map((n) => n.data.title)).toEqual(['Vos données sont prêtes']);
  await page.context().close();
});
