import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Page, PageQuery } from '../../../../contract/common.ts';
import { Payment, PaymentCheckout, sandboxConfirmRequest, stripePaymentCreate } from '../../../../contract/payments.ts';
import { Subscription } from '../../../../contract/subscriptions.ts';
import { badRequest } from '../../../lib/problems.ts';
import { callKey } from '../../../plugins/idempotency.ts';
import { named } from '../../../lib/schema.ts';
import { pageWindow } from '../../../lib/paging.ts';
import { MalformedEventError, WebhookSignatureError } from '../providers/provider.ts';
import { signedIn } from '../../../plugins/auth.ts';
import type { Services } from '../../../services.ts';

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const payments = services.payments;
  const tags = ['payments'];

  // Stripe signs the exact bytes it sent: the body is kept raw for the check.
  await app.register(async (webhook) => {
    webhook.removeContentTypeParser('application/json');
    webhook.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) => done(null, body));
    webhook.post(
      '/v1/payment/stripe/webhook',
      {
        config: { rateLimit: false },
        schema: {
          tags,
          summary: 'Stripe’s events, signed (Stripe-Signature header, no bearer token); each applied once',
          security: [],
          headers: Type.Object({ 'stripe-signature': Type.Optional(Type.String({ maxLength: 2000 })) }),
          response: { 200: Type.Object({ received: Type.Boolean() }) },
        },
      },
      async (request) => {
        if (!Buffer.isBuffer(request.body)) throw badRequest('payments.jsonBodyExpected');
        try {
          const signature = request.headers['stripe-signature'];
          await services.paymentEvents.webhook(request.body, typeof signature === 'string' ? signature : undefined);
        } catch (err) {
          if (err instanceof WebhookSignatureError) throw badRequest('payments.badSignature', {}, [{ field: 'Stripe-Signature', key: 'field.signatureMismatch' }]);
          // Signed but unreadable: kept for staff; a 400 shows at Stripe as failed, where a 500 would be retried for days.
          if (err instanceof MalformedEventError) throw badRequest('payments.unreadableEvent', { problem: err.message });
          throw err;
        }
        return { received: true };
      },
    );
  });

  await signedIn(app, null, (player) => {
    player.post(
      '/v1/payment/stripe',
      {
        schema: {
          problems: [404],
          tags,
          summary: 'Buy a credit pack by card: the payment (after the promo code) and what the web needs to collect the card (Stripe client secret and key, or the sandbox payment id)',
          body: named(stripePaymentCreate),
          response: { 201: PaymentCheckout },
        },
      },
      async (request, reply) => reply.status(201).send(await payments.buyPack(request.user.id, request.body, callKey(request))),
    );

    player.get(
      '/v1/payment/:id',
      { schema: { tags, summary: 'One of your card payments: the result page follows it until the provider settles it', params: IdParams, response: { 200: Payment } } },
      async (request) => payments.get(request.user.id, request.params.id),
    );

    player.get('/v1/purchase/payments', { schema: { tags, summary: 'Your card payments, newest first', querystring: PageQuery, response: { 200: Page(Payment) } } }, async (request) =>
      payments.list(request.user.id, pageWindow(request.query)),
    );

    player.post(
      '/v1/payment/sandbox/:id/confirm',
      {
        schema: {
          problems: [402],
          tags,
          summary: 'Sandbox (no money): settle a payment with a test card: 4242424242424242 succeeds, 4000000000000002 is declined, 4000000000009995 has insufficient funds (402 with the reason)',
          params: IdParams,
          body: named(sandboxConfirmRequest),
          response: { 200: Payment },
        },
      },
      async (request) => payments.confirmSandbox(request.user.id, request.params.id, request.body.cardNumber),
    );

    player.post(
      '/v1/payment/sandbox/subscription/:id/renew',
      { schema: { tags, summary: 'Sandbox (no money): bill your subscription’s next period now, so a test can pass a billing period', params: IdParams, response: { 200: Subscription } } },
      async (request) => payments.renewSandbox(request.user.id, request.params.id),
    );
  });
};

export default routes;
