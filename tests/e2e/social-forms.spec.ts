import { expect, signUp, test } from './fixtures.ts';

test("the social forms say what is wrong where it is wrong: a bad name under its field, the API's refusal in the message, a refused rename under the name", async ({ browser }) => {
  const page = await signUp(browser, `forms_${Date.now().toString(36).slice(-5)}`);

  // A Minecraft name Minecraft would refuse is said under the field as it is typed; nothing is sent.
  await page.goto('/dashboard/social');
  const friendName = page.getByLabel('Son pseudo Minecraft');
  await friendName.fill('no!');
  await expect(friendName).toHaveAccessibleDescription('3 à 16 lettres, chiffres ou tirets bas');
  await expect(page.getByRole('button', { name: 'Envoyer la demande' })).toBeDisabled();

  // A group, then the same name again: the API's 409 is said, and the name stays typed to fix it.
  await page.getByRole('tab', { name: 'Groupes' }).click();
  const newName = page.getByLabel('Nom du nouveau groupe');
  await newName.fill('Raid');
  await page.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(page.getByTestId('notice')).toHaveText('Groupe Raid créé.');
  await expect(page.getByTestId('group-Raid')).toBeVisible();
  await expect(newName).toHaveValue('');
  await newName.fill('Raid');
  await page.getByRole('button', { name: 'Créer', exact: true }).click();
  await expect(page.getByTestId('notice')).toContainText("Le groupe n'a pas pu être créé : Vous avez déjà un groupe nommé « Raid »");
  await expect(newName).toHaveValue('Raid');
  await expect(page.getByTestId('group-Raid')).toHaveCount(1);

  // A rename the API refuses field by field (problem+json `errors`): the word shows under the name, the dialog stays.
  await page.route('**/v1/friend/group/*', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 400,
          contentType: 'application/problem+json',
          body: JSON.stringify({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'body/name is not allowed', errors: [{ field: 'name', message: 'is not allowed' }] }),
        })
      : route.fallback(),
  );
  await page.getByRole('button', { name: 'Renommer le groupe Raid' }).click();
  const rename = page.getByRole('dialog', { name: 'Renommer le groupe' });
  const renamed = rename.getByLabel('Nom du groupe');
  await renamed.fill('Raid du soir');
  await rename.getByRole('button', { name: 'Renommer' }).click();
  await expect(renamed).toHaveAccessibleDescription('is not allowed');
  await expect(rename).toBeVisible();

  // Accepted this time: the dialog closes and the list shows the new name.
  await page.unroute('**/v1/friend/group/*');
  await renamed.fill('Raid du soir');
  await rename.getByRole('button', { name: 'Renommer' }).click();
  await expect(rename).toBeHidden();
  await expect(page.getByTestId('notice')).toHaveText('Groupe renommé.');
  await expect(page.getByTestId('group-Raid du soir')).toBeVisible();
});
