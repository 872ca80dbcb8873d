import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../../db/client.ts';
import { subscriptionPlans, subscriptions } from '../../../db/schema/subscriptions.ts';
import { conflict, notFound } from '../../../lib/problems.ts';
import { pageOf, type Window } from '../../../lib/paging.ts';
import { isUniqueViolation } from '../../../lib/db-errors.ts';
import type { Subscription, SubscriptionCreateRequest, SubscriptionPlan } from '../../../../contract/subscriptions.ts';
import type { SubscriptionStatus } from '../providers/provider.ts';
import type { AuditService } from '../../audit/service.ts';

type PlanRow = typeof subscriptionPlans.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

function toPlan(row: PlanRow): SubscriptionPlan {
  return {
    id: row.id,
    name: row.name,
    priceCents: row.priceCents,
    currency: row.currency,
    interval: row.interval,
    credits: row.credits,
    archived: row.archived,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Subscription plans (staff) and players' subscriptions to them. A subscription's state follows
 * the provider's events, which the payments module applies through `applyProviderState`. Every
 * plan write is staff's, audited in its own transaction.
 */
/** Subscriptions paid or being retried on a plan. The plan's id is named with its table: drizzle writes a lone "id" in a one-table query, which the subquery would read as its own. */
const subscriberCount = () => sql<number>`(select count(*)::int from ${subscriptions} s where s.plan_id = ${subscriptionPlans}.id and s.status in ('ACTIVE', 'PAST_DUE'))`;

export class SubscriptionsService {
  private readonly db: Db;
  private readonly audit: AuditService;

  constructor(db: Db, audit: AuditService) {
    this.db = db;
    this.audit = audit;
  }

  async createPlan(actorId: string | null, input: SubscriptionCreateRequest): Promise<SubscriptionPlan> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(subscriptionPlans).values(input).returning();
      const plan = toPlan(row!);
      await this.audit.record(tx, { actorId, action: 'plan.create', entity: 'plan', entityId: plan.id, after: plan });
      return plan;
    });
  }

  /**
   * Changes a plan. Subscribers are billed the new price from their next period; a new price,
   * currency or interval drops the provider's price (Stripe's are immutable), so the next
   * subscription makes one.
   */
  async updatePlan(actorId: string | null, id: string, input: SubscriptionCreateRequest): Promise<SubscriptionPlan> {
    return this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id)).for('update');
      if (!before) throw notFound('subscriptionPlan');
      const samePrice = before.priceCents === input.priceCents && before.currency === input.currency && before.interval === input.interval;
      const [row] = await tx
        .update(subscriptionPlans)
        .set({ ...input, ...(samePrice ? {} : { providerPriceId: null }), updatedAt: new Date() })
        .where(eq(subscriptionPlans.id, id))
        .returning();
      const plan = toPlan(row!);
      await this.audit.record(tx, { actorId, action: 'plan.update', entity: 'plan', entityId: id, before: toPlan(before), after: plan });
      return plan;
    });
  }

  /**
   * Plans on sale, cheapest first; staff and support also see archived ones, with their subscribers:
   * subscriptions paid (ACTIVE) or being retried (PAST_DUE), not one whose first period is unpaid.
   */
  async listPlans(window: Window, withArchived: boolean) {
    const where = withArchived ? undefined : eq(subscriptionPlans.archived, false);
    const [rows, [total]] = await Promise.all([
      this.db
        .select({ plan: subscriptionPlans, subscriberCount: subscriberCount() })
        .from(subscriptionPlans)
        .where(where)
        .orderBy(asc(subscriptionPlans.archived), asc(subscriptionPlans.priceCents), asc(subscriptionPlans.id))
        .limit(window.limit)
        .offset(window.offset),
      this.db.select({ n: count() }).from(subscriptionPlans).where(where),
    ]);
    return pageOf(
      rows.map((r) => ({ ...toPlan(r.plan), ...(withArchived ? { subscriberCount: r.subscriberCount } : {}) })),
      total?.n ?? 0,
      window,
    );
  }

  /** A plan, archived or not, with its subscriber count, as staff and support read it: 404 when unknown. */
  async planWithSubscribers(id: string): Promise<SubscriptionPlan & { subscriberCount: number }> {
    const [row] = await this.db.select({ plan: subscriptionPlans, subscriberCount: subscriberCount() }).from(subscriptionPlans).where(eq(subscriptionPlans.id, id));
    if (!row) throw notFound('subscriptionPlan');
    return { ...toPlan(row.plan), subscriberCount: row.subscriberCount };
  }

  /** Archives a plan: no new subscribers; current ones keep it until they cancel. */
  async archivePlan(actorId: string | null, id: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id)).for('update');
      if (!before) throw notFound('subscriptionPlan');
      const [row] = await tx.update(subscriptionPlans).set({ archived: true, updatedAt: new Date() }).where(eq(subscriptionPlans.id, id)).returning();
      await this.audit.record(tx, { actorId, action: 'plan.archive', entity: 'plan', entityId: id, before: toPlan(before), after: toPlan(row!) });
    });
  }

  async planOnSale(id: string): Promise<PlanRow> {
    const [row] = await this.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id));
    if (!row || row.archived) throw notFound('subscriptionPlan');
    return row;
  }

  async plan(id: string, executor: Executor = this.db): Promise<PlanRow | undefined> {
    const [row] = await executor.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id));
    return row;
  }

  async rememberProviderPrice(planId: string, providerPriceId: string): Promise<void> {
    await this.db.update(subscriptionPlans).set({ providerPriceId }).where(eq(subscriptionPlans.id, planId));
  }

  /** Starts a subscription INCOMPLETE (until its first period is paid); 409 when the player has one. */
  async open(tx: Executor, userId: string, planId: string, provider: string): Promise<SubscriptionRow> {
    try {
      const [row] = await tx.insert(subscriptions).values({ userId, planId, provider }).returning();
      return row!;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('subscriptions.alreadySubscribed');
      throw err;
    }
  }

  async setProviderId(id: string, providerSubscriptionId: string, executor: Executor = this.db): Promise<void> {
    await executor.update(subscriptions).set({ providerSubscriptionId, updatedAt: new Date() }).where(eq(subscriptions.id, id));
  }

  /** The player's current subscription (not CANCELED), or null. */
  async current(userId: string, executor: Executor = this.db): Promise<SubscriptionRow | null> {
    const [row] = await executor
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), ne(subscriptions.status, 'CANCELED')));
    return row ?? null;
  }

  async view(row: SubscriptionRow): Promise<Subscription> {
    const plan = await this.plan(row.planId);
    return {
      id: row.id,
      plan: toPlan(plan!),
      status: row.status,
      currentPeriodStart: row.currentPeriodStart?.toISOString() ?? null,
      currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async byProviderId(providerSubscriptionId: string, executor: Executor): Promise<SubscriptionRow | undefined> {
    const [row] = await executor.select().from(subscriptions).where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId)).for('update');
    return row;
  }

  async byId(id: string, executor: Executor = this.db): Promise<SubscriptionRow | undefined> {
    const [row] = await executor.select().from(subscriptions).where(eq(subscriptions.id, id));
    return row;
  }

  /** What the provider says of the subscription now. */
  async applyProviderState(tx: Executor, id: string, state: { status?: SubscriptionStatus; periodStart?: Date; periodEnd?: Date | null; cancelAtPeriodEnd?: boolean }): Promise<void> {
    await tx
      .update(subscriptions)
      .set({
        ...(state.status ? { status: state.status } : {}),
        ...(state.status === 'CANCELED' ? { canceledAt: new Date() } : {}),
        ...(state.periodStart ? { currentPeriodStart: state.periodStart } : {}),
        ...(state.periodEnd ? { currentPeriodEnd: state.periodEnd } : {}),
        ...(state.cancelAtPeriodEnd === undefined ? {} : { cancelAtPeriodEnd: state.cancelAtPeriodEnd }),
        updatedAt: new Date(),
      })
      .where(eq(subscriptions.id, id));
  }
}
