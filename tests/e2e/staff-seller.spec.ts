import { accounts, expect, picturesInEachLook, shoot, signIn, test } from './fixtures.ts';

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/staff-seller';

test("the back office's first page warns staff that invoices carry the placeholder seller address; support is not told", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  // The test server runs without INVOICE_SELLER_ADDRESS, as a new installation does.
  // Signed in where the back office lands: signing in at /dashboard/staff raced its redirect
  // to the definitions against the check that the sign-in came back to /dashboard/staff.
  await signIn(page, accounts.staff, '/dashboard/staff/definitions');
  await page.goto('/dashboard/staff');
  await expect(page).toHaveURL(/\/dashboard\/staff\/definitions(\?.*)?$/);
  const warning = page.getByTestId('seller-placeholder');
  await expect(warning).toContainText('Les factures portent une adresse de vendeur fictive');
  await expect(warning).toContainText('1 rue de l’Exemple');
  await expect(warning).toContainText('INVOICE_SELLER_ADDRESS');
  await picturesInEachLook(
    page,
    () => expect(warning).toBeVisible(),
    ({ theme, width }) => shoot(page, { path: `${SHOTS}/definitions-${width}-${theme}.png` }),
  );
  await page.context().close();

  const reader = await (await browser.newContext()).newPage();
  await signIn(reader, accounts.support, '/dashboard/staff/definitions');
  await expect(reader.getByTestId('staff-layout')).toBeVisible();
  await expect(reader.getByTestId('seller-placeholder')).toHaveCount(0);
});
