import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import type { BrowserContext, Page } from '@playwright/test';
import { startFakeStripe, type FakeStripe, type StripeEvent } from '../fixtures/stripe.ts';
import { accessToken, expect, followScripts, picturesInEachLook, shoot, signIn, test as base } from './fixtures.ts';

// Named after credits.spec.ts, whose purchases it makes through Stripe: Playwright runs spec files in
// the order of their names, and this one, needing a worker and a server of its own, ran alone last.

/** Screenshots for a person to look at: outside Playwright's output folder, which each run empties. */
const SHOTS = 'test-results/stripe';
const WEBHOOK_SECRET = 'whsec_blockhost_browser_tests';
const ROOT = path.join(import.meta.dirname, '..', '..');
const FAKE_STRIPE_JS = path.join(ROOT, 'tests', 'fixtures', 'fake-stripe.js');

/** The server of this file: Stripe instead of the sandbox, its API the fake Stripe of the API tests. */
interface StripeApp {
  url: string;
  stripe: FakeStripe;
  /** Sends an event to the webhook as Stripe does, signed with the webhook secret. */
  deliver: (event: StripeEvent) => Promise<number>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startStripeApp(): Promise<StripeApp & { close: () => Promise<void> }> {
  const stripe = await startFakeStripe();
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-e2e-stripe-'));
  const server: ChildProcess = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SIGNIN_PER_MINUTE: '1000',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_blockhost_browser',
      STRIPE_API_URL: stripe.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its output only matters when it fails to start.
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  server.stdout!.on('data', keep);
  server.stderr!.on('data', keep);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the Stripe test server exited with ${server.exitCode}:\n${output}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the Stripe test server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const signer = new Stripe('sk_test_signer');
  return {
    url,
    stripe,
    deliver: async (event) => {
      const payload = JSON.stringify(event);
      const signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      const res = await fetch(`${url}/v1/payment/stripe/webhook`, { method: 'POST', body: payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
      return res.status;
    },
    close: async () => {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
      await stripe.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const test = base.extend<object, { stripeApp: StripeApp }>({
  stripeApp: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      const app = await startStripeApp();
      await use(app);
      await app.close();
    },
    { scope: 'worker', timeout: 150_000 },
  ],
});
test.use({ baseURL: async ({ stripeApp }, use) => use(stripeApp.url) });

/**
 * Serves the fake Stripe.js for every request to js.stripe.com (this machine cannot reach it) and
 * records the path of the page that asked.
 */
async function fakeStripeJs(context: BrowserContext): Promise<string[]> {
  const askedFrom: string[] = [];
  await context.route('https://js.stripe.com/**', async (route) => {
    askedFrom.push(new URL(route.request().frame().url()).pathname);
    if (new URL(route.request().url()).pathname.endsWith('/stripe.js')) await route.fulfill({ path: FAKE_STRIPE_JS, contentType: 'text/javascript' });
    else await route.fulfill({ status: 404 });
  });
  return askedFrom;
}

/** Signed in as alice: /credits, the first pack, then the card step with Stripe's Payment Element. */
async function openCardStep(page: Page) {
  await page.goto('/credits');
  await page.getByTestId('credit-pack').filter({ hasText: 'Découverte' }).getByRole('button', { name: 'Choisir ce pack' }).click();
  await page.getByTestId('credits-continue').click();
  await expect(page.getByTestId('stripe-payment-element')).toBeVisible();
  await expect(page.getByTestId('sandbox-notice')).toHaveCount(0);
}

async function payWith(page: Page, card: string) {
  const element = page.getByTestId('stripe-payment-element');
  await element.getByLabel('Numéro de carte').fill(card);
  await element.getByLabel("Date d'expiration").fill('12 / 34');
  await element.getByLabel('Code de sécurité').fill('123');
  await page.getByRole('button', { name: /^Payer 4,99/ }).click();
}

/** The page at 1280 and 375 px in the light and the dark theme, made ready by `open`. */
async function screenshots(page: Page, name: string, open: () => Promise<void>) {
  await picturesInEachLook(page, open, async ({ theme, label }) => {
    // From the top: the card step scrolls itself into view, and the fixed header would sit mid-page.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await shoot(page, { path: `${SHOTS}/${name}-${label}-${theme}.png`, fullPage: true });
  });
}

/** What the page's scripts threw, the fake Stripe.js's integration errors among them. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** The payment intent the result page came back with, as Stripe put it in the return address. */
const intentOf = (page: Page) => new URL(page.url()).searchParams.get('payment_intent')!;

const balance = async (page: Page) => ((await (await page.request.get('/v1/user', { headers: { authorization: `Bearer ${await accessToken(page)}` } })).json()) as { balance: number }).balance;

test('a player pays a pack through Stripe’s Payment Element; the result page waits for the webhook, then shows the credits and new balance', async ({ page, stripeApp }) => {
  test.setTimeout(180_000);
  const askedFrom = await fakeStripeJs(page.context());
  const errors = pageErrors(page);
  await signIn(page);
  const before = await balance(page);

  // Until the card step, no page asks for Stripe's script.
  const scripts = followScripts(page);
  for (const p of ['/', '/credits', '/dashboard']) {
    await page.goto(p);
    await expect(page.locator('main h1').first()).toBeVisible();
    await scripts.settled();
  }
  await page.goto('/credits');
  await page.getByTestId('credit-pack').filter({ hasText: 'Découverte' }).getByRole('button', { name: 'Choisir ce pack' }).click();
  await expect(page.getByTestId('credits-summary')).toBeVisible();
  expect(askedFrom).toEqual([]);

  await screenshots(page, 'stripe-card-step', () => openCardStep(page));
  expect(askedFrom.length).toBeGreaterThan(0);
  expect(new Set(askedFrom)).toEqual(new Set(['/credits']));

  // An incomplete card is refused by Stripe.js itself, on the page.
  await openCardStep(page);
  await page.getByTestId('stripe-payment-element').getByLabel('Numéro de carte').fill('4242');
  await page.getByRole('button', { name: /^Payer 4,99/ }).click();
  await expect(page.getByTestId('card-error')).toHaveText('Le numéro de votre carte est incomplet.');

  // The card works: Stripe comes back to the result page, which waits for the webhook.
  await payWith(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/stripe_result\?paymentId=.+&payment_intent=pi_.+&redirect_status=succeeded/);
  await expect(page.getByTestId('payment-processing')).toContainText('Paiement en cours de confirmation…');
  const resultUrl = page.url();
  await screenshots(page, 'stripe-result-processing', async () => {
    await page.goto(resultUrl);
    await expect(page.getByTestId('payment-processing')).toBeVisible();
  });
  // The redirect alone credits nothing: the page reads the payment again and it is still processing.
  const paymentPath = `/v1/payment/${new URL(page.url()).searchParams.get('paymentId')}`;
  const reread = await page.waitForResponse((r) => new URL(r.url()).pathname === paymentPath);
  expect((await reread.json()).status).toBe('PENDING');
  await expect(page.getByTestId('payment-processing')).toBeVisible();
  expect(await balance(page)).toBe(before);

  expect(await stripeApp.deliver(stripeApp.stripe.succeedPaymentIntent(intentOf(page)))).toBe(200);
  await expect(page.getByTestId('credits-received')).toContainText('500 crédits ont été ajoutés à votre compte.');
  await expect(page.getByTestId('new-balance')).toHaveText(`Nouveau solde : ${(before + 500).toLocaleString('fr')} crédits`);
  await expect(page.getByTestId('credit-button')).toHaveAttribute('aria-label', `Solde : ${(before + 500).toLocaleString('fr')} crédits`);
  await screenshots(page, 'stripe-result-success', async () => {
    await page.goto(resultUrl);
    await expect(page.getByTestId('new-balance')).toBeVisible();
  });
  // The result page never asks for Stripe's script.
  expect(new Set(askedFrom)).toEqual(new Set(['/credits']));
  expect(errors).toEqual([]);
});

test('a declined card says so on the card step; a failed authentication comes back failed and the webhook’s failure shows with try again', async ({ page, stripeApp }) => {
  test.setTimeout(180_000);
  const askedFrom = await fakeStripeJs(page.context());
  const errors = pageErrors(page);
  await signIn(page);
  const before = await balance(page);

  // Declined at once: Stripe.js answers an error, the player stays on the card step.
  await openCardStep(page);
  await payWith(page, '4000 0000 0000 0002');
  await expect(page.getByTestId('card-error')).toHaveText('Votre carte a été refusée.');
  await expect(page).toHaveURL(/\/credits$/);

  // 3-D Secure fails: Stripe comes back with redirect_status=failed; the payment's own state decides.
  await payWith(page, '4000 0027 6000 3184');
  await expect(page).toHaveURL(/\/stripe_result\?paymentId=.+&redirect_status=failed/);
  await expect(page.getByTestId('payment-processing')).toBeVisible();
  expect(await stripeApp.deliver(stripeApp.stripe.declinePaymentIntent(intentOf(page), 'generic_decline'))).toBe(200);
  const failed = page.getByTestId('payment-failed');
  await expect(failed).toContainText('Le paiement n’a pas abouti');
  await expect(failed).toContainText('Aucun crédit n’a été ajouté.');
  await expect(failed).toContainText('Votre carte a été refusée. Essayez une autre carte.');
  expect(await balance(page)).toBe(before);
  const resultUrl = page.url();
  await screenshots(page, 'stripe-result-failed', async () => {
    await page.goto(resultUrl);
    await expect(page.getByTestId('payment-failed')).toBeVisible();
  });
  expect(new Set(askedFrom)).toEqual(new Set(['/credits']));

  // Try again: back to the packs, and the Payment Element for a new payment.
  await failed.getByRole('link', { name: 'Réessayer' }).click();
  await expect(page).toHaveURL(/\/credits$/);
  await openCardStep(page);
  expect(errors).toEqual([]);
});
