import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, Page, PageQuery } from '../../../../contract/common.ts';
import { SubscriptionPlan, subscriptionCreateRequest } from '../../../../contract/credits.ts';
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
};

export default routes;
