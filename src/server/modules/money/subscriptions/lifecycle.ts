import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/client.ts';
import { conflict, notFound } from '../../../lib/problems.ts';
import type { PaymentProvider } from '../providers/provider.ts';
import { providerProblem, type PaymentsService } from '../payments/service.ts';
import type { UsersService } from '../../users/service.ts';
import type { PaymentCheckout } from '../../../../contract/payments.ts';
import type { Subscription } from '../../../../contract/subscriptions.ts';
import type { SubscriptionsService } from './service.ts';

/**
 * A player's subscription from start to end: subscribing to a plan (its first period's payment
 * is opened with it, paid by card through the payments), cancelling at the period's end, taking
 * the cancellation back. What the provider then says happened (periods paid, failures, the end)
 * is applied by the payments' events (payments/events.ts).
 */
export class SubscriptionLifecycle {
  private readonly db: Db;
  private readonly subscriptions: SubscriptionsService;
  private readonly d: { provider: PaymentProvider; payments: PaymentsService; users: UsersService };

  constructor(db: Db, deps: { subscriptions: SubscriptionsService; provider: PaymentProvider; payments: PaymentsService; users: UsersService }) {
    this.db = db;
    this.subscriptions = deps.subscriptions;
    this.d = deps;
  }

  /** Subscribes the player to a plan: INCOMPLETE until its first period is paid. */
  async subscribe(userId: string, planId: string, idempotencyKey: string): Promise<PaymentCheckout & { subscription: Subscription }> {
    const plan = await this.subscriptions.planOnSale(planId);
    const { subscription, payment } = await this.db.transaction(async (tx) => {
      const subscription = await this.subscriptions.open(tx, userId, plan.id, this.d.provider.name);
      return { subscription, payment: await this.d.payments.openForSubscription(tx, userId, subscription.id, plan) };
    });
    const user = await this.d.users.get(userId);
    try {
      const created = await this.d.provider.createSubscription({
        subscriptionId: subscription.id,
        userId,
        email: user?.email ?? null,
        customerId: await this.d.payments.customer(userId),
        plan: { planId: plan.id, name: plan.name.en, priceCents: plan.priceCents, currency: plan.currency, interval: plan.interval, providerPriceId: plan.providerPriceId },
        idempotencyKey: `subscription-${idempotencyKey}-${subscription.id}`,
      });
      await this.d.payments.rememberCustomer(userId, created.customerId);
      if (created.providerPriceId && created.providerPriceId !== plan.providerPriceId) await this.subscriptions.rememberProviderPrice(plan.id, created.providerPriceId);
      // The first period's payment is matched to the provider's first invoice when it is paid (invoice.paid).
      await this.subscriptions.setProviderId(subscription.id, created.providerSubscriptionId);
      const view = await this.subscriptions.view({ ...subscription, providerSubscriptionId: created.providerSubscriptionId });
      return { ...this.d.payments.checkout(payment, created.clientSecret), subscription: view };
    } catch (err) {
      await this.db.transaction(async (tx) => {
        await this.subscriptions.applyProviderState(tx, subscription.id, { status: 'CANCELED' });
        await this.d.payments.failSubscriptionPayment(tx, payment.id);
      });
      throw providerProblem(err);
    }
  }

  /**
   * Cancels the player's subscription at the end of the paid period; answers it, with until when.
   * The provider's idempotency key is the subscription's id and one made for this call: the
   * player's Idempotency-Key is theirs only (another player may send the same), and a replay of
   * their call is answered by the API without coming here.
   */
  async cancel(userId: string): Promise<Subscription> {
    const current = await this.subscriptions.current(userId);
    if (!current) throw notFound('subscription');
    if (current.providerSubscriptionId) {
      await this.d.provider.cancelSubscription(current.providerSubscriptionId, `cancel-${current.id}-${randomUUID()}`).catch((err: unknown) => {
        throw providerProblem(err);
      });
    }
    // An unpaid subscription has no period to run to: it ends now.
    const endsNow = current.status === 'INCOMPLETE';
    await this.db.transaction((tx) => this.subscriptions.applyProviderState(tx, current.id, endsNow ? { status: 'CANCELED' } : { cancelAtPeriodEnd: true }));
    return this.subscriptions.view((await this.subscriptions.byId(current.id))!);
  }

  /** An account being deleted: its subscription is cancelled as its owner would (no more charges), once. */
  async endForDeletion(userId: string): Promise<void> {
    const current = await this.subscriptions.current(userId);
    if (current && !current.cancelAtPeriodEnd) await this.cancel(userId);
  }

  /** Takes back a cancellation; the provider's idempotency key is made as the cancellation's is. */
  async resume(userId: string): Promise<Subscription> {
    const current = await this.subscriptions.current(userId);
    if (!current) throw notFound('subscription');
    if (!current.cancelAtPeriodEnd) throw conflict('payments.subscriptionNotCancelling');
    if (current.providerSubscriptionId) {
      await this.d.provider.resumeSubscription(current.providerSubscriptionId, `resume-${current.id}-${randomUUID()}`).catch((err: unknown) => {
        throw providerProblem(err);
      });
    }
    await this.db.transaction((tx) => this.subscriptions.applyProviderState(tx, current.id, { cancelAtPeriodEnd: false }));
    return this.subscriptions.view((await this.subscriptions.byId(current.id))!);
  }

  async mine(userId: string): Promise<Subscription | null> {
    const current = await this.subscriptions.current(userId);
    return current ? this.subscriptions.view(current) : null;
  }
}
