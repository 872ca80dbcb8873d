import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Page, PageQuery } from '../../../../contract/common.ts';
import { PaymentCheckout, stripeSubscriptionRequest } from '../../../../contract/payments.ts';
import { Subscription, SubscriptionPlan, subscriptionCreateRequest } from '../../../../contract/subscriptions.ts';
import { callKey } from '../../../plugins/idempotency.ts';
import { named } from '../../../lib/schema.ts';
import { pageWindow } from '../../../lib/paging.ts';
import { signedIn } from '../../../plugins/auth.ts';
import type { Services } from '../../../services.ts';

const PlanWithSubscribers = Type.Intersect([
  SubscriptionPlan,
  Type.Object({ subscriberCount: Type.Optional(Type.Integer({ description: 'Subscriptions paid or being retried (ACTIVE, PAST_DUE); staff and support only' })) }),
]);

const routes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const subscriptions = services.subscriptions;
  const tags = ['subscriptions'];

  app.get(
    '/v1/subscription',
    {
      onRequest: app.identify,
      schema: {
        tags,
        summary: 'Subscription plans on offer, cheapest first (no token; staff and support also see archived ones and subscriber counts)',
        querystring: PageQuery,
        response: { 200: Page(PlanWithSubscribers) },
      },
    },
    async (request) => subscriptions.listPlans(pageWindow(request.query), !!request.user?.roles.some((r) => r === 'staff' || r === 'support')),
  );

  await signedIn(app, ['staff', 'support'], (staffAndSupport) => {
    staffAndSupport.get(
      '/v1/subscription/:id',
      { schema: { tags, summary: 'Staff and support: one plan, archived or not, with its subscriber count', params: IdParams, response: { 200: PlanWithSubscribers } } },
      async (request) => subscriptions.planWithSubscribers(request.params.id),
    );
  });

  await signedIn(app, ['staff'], (staffOnly) => {
    staffOnly.post(
      '/v1/subscription',
      { schema: { tags, summary: 'Staff: offer a subscription plan', body: named(subscriptionCreateRequest), response: { 201: SubscriptionPlan } } },
      async (request, reply) => reply.status(201).send(await subscriptions.createPlan(request.user.id, request.body)),
    );

    staffOnly.put(
      '/v1/subscription/:id',
      {
        schema: {
          tags,
          summary: 'Staff: change a plan (subscribers pay the new price from their next period)',
          params: IdParams,
          body: named(subscriptionCreateRequest),
          response: { 200: SubscriptionPlan },
        },
      },
      async (request) => subscriptions.updatePlan(request.user.id, request.params.id, request.body),
    );

    staffOnly.delete(
      '/v1/subscription/:id',
      { schema: { tags, summary: 'Staff: archive a plan (current subscribers keep it until they cancel)', params: IdParams, response: { 204: Type.Null() } } },
      async (request, reply) => {
        await subscriptions.archivePlan(request.user.id, request.params.id);
        return reply.status(204).send(null);
      },
    );
  });

  // A player's own subscription: under the payments' paths and tag, as the card payments it makes.
  const lifecycle = services.subscriptionLifecycle;
  const paymentTags = ['payments'];
  await signedIn(app, null, (player) => {
    player.post(
      '/v1/payment/stripe/subscription',
      {
        schema: {
          problems: [404],
          tags: paymentTags,
          summary: 'Subscribe to a plan (409 when you have one): INCOMPLETE until its first period is paid by card',
          body: named(stripeSubscriptionRequest),
          response: { 201: Type.Intersect([PaymentCheckout, Type.Object({ subscription: Subscription })]) },
        },
      },
      async (request, reply) => reply.status(201).send(await lifecycle.subscribe(request.user.id, request.body.subscriptionId, callKey(request))),
    );

    player.get(
      '/v1/payment/stripe/subscription',
      { schema: { tags: paymentTags, summary: 'Your current subscription, or null', response: { 200: Type.Union([Subscription, Type.Null()]) } } },
      async (request) => lifecycle.mine(request.user.id),
    );

    player.post(
      '/v1/payment/stripe/subscription/cancel',
      { schema: { problems: [404], tags: paymentTags, summary: 'Cancel your subscription at the end of the paid period (currentPeriodEnd says until when)', response: { 200: Subscription } } },
      async (request) => lifecycle.cancel(request.user.id),
    );

    player.post(
      '/v1/payment/stripe/subscription/resume',
      { schema: { problems: [404], tags: paymentTags, summary: 'Keep a subscription you cancelled, before its period ends', response: { 200: Subscription } } },
      async (request) => lifecycle.resume(request.user.id),
    );
  });
};

export default routes;
