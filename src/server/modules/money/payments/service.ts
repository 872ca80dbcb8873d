import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import { paymentCustomers, payments } from '../../../db/schema/payments.ts';
import { conflict, HttpProblem, notFound, type ErrorKey } from '../../../lib/problems.ts';
import { pageOf, type Window } from '../../../lib/paging.ts';
import { PaymentProviderError, type PaymentProvider, type ProviderEvent, type ServerCardStep } from '../providers/provider.ts';
import type { AuditService } from '../../audit/service.ts';
import type { CreditPacksService } from '../credit-packs/service.ts';
import { discounted, type PromoCodesService } from '../promocodes/service.ts';
import type { SubscriptionsService } from '../subscriptions/service.ts';
import type { UsersService } from '../../users/service.ts';
import type { PaymentEvents } from './events.ts';
import type { Payment, PaymentCheckout } from '../../../../contract/payments.ts';
import type { Subscription } from '../../../../contract/subscriptions.ts';

type Row = typeof payments.$inferSelect;
/** Stripe charges no less than this (in the currency's minor units, for EUR and USD). */
const MIN_CHARGE_CENTS = 50;
const DAY_MS = 24 * 3600_000;
/**
 * A refund asked this recently is waiting for the provider's charge.refunded: asking again answers
 * 409. After it (the event lost, the process stopped half-way), staff may ask again: the provider
 * gets the same idempotency key (nothing refunded since), so it refunds once.
 */
const REFUND_WAIT_MS = 3600_000;

function toPayment(row: Row): Payment {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    provider: row.provider,
    amountCents: row.amountCents,
    currency: row.currency,
    credits: row.credits,
    bonusCredits: row.bonusCredits,
    promoCode: row.promoCode,
    failureReason: row.failureReason,
    refundedCents: row.refundedCents,
    createdAt: row.createdAt.toISOString(),
    settledAt: row.settledAt?.toISOString() ?? null,
  };
}

/**
 * Whether staff may refund the payment: a pack paid and not wholly refunded. A subscription
 * period is not: Stripe's charge.refunded names the payment intent, which such a payment (an
 * invoice) does not know.
 */
export function isRefundable(row: Pick<Row, 'kind' | 'status' | 'providerPaymentId' | 'amountCents' | 'refundedCents' | 'refundRequestedAt'>, now = new Date()): boolean {
  return row.kind === 'PACK' && row.status === 'SUCCEEDED' && row.providerPaymentId !== null && row.refundedCents < row.amountCents && !refundPending(row, now);
}

function refundPending(row: Pick<Row, 'refundRequestedAt'>, now: Date): boolean {
  return row.refundRequestedAt !== null && now.getTime() - row.refundRequestedAt.getTime() < REFUND_WAIT_MS;
}

/** The failure reasons the catalogue words (`payments.failure.*`); any other reads as "the payment failed". */
const failureKeys = new Set(['declined', 'insufficient_funds', 'expired_card', 'processing_error']);

export interface PaymentsDeps {
  provider: PaymentProvider;
  users: UsersService;
  creditPacks: CreditPacksService;
  promoCodes: PromoCodesService;
  subscriptions: SubscriptionsService;
  audit: AuditService;
  /** Where the provider's events are applied: the calls play the sandbox's through it too. */
  events: PaymentEvents;
  clock: () => Date;
}

/**
 * Card payments: credit packs and subscription periods. A payment is created PENDING with what it
 * will credit; the provider collects the card; credits arrive only from the provider's event,
 * applied once (`provider_events` holds its id) in one transaction with the ledger rows and the
 * invoice (events.ts). Stripe's webhook and the sandbox's confirm both end there.
 */
export class PaymentsService {
  private readonly db: Db;
  private readonly d: PaymentsDeps;

  constructor(db: Db, deps: PaymentsDeps) {
    this.db = db;
    this.d = deps;
  }

  get provider(): PaymentProvider {
    return this.d.provider;
  }

  async hasPaymentsForPack(packId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: payments.id }).from(payments).where(eq(payments.packId, packId)).limit(1);
    return !!row;
  }

  /** Buys a pack: the payment (after the promo code), then what the web needs to collect the card. */
  async buyPack(userId: string, input: { pricingId: string; promoCode?: string | undefined }, idempotencyKey: string): Promise<PaymentCheckout> {
    const id = randomUUID();
    const row = await this.db.transaction(async (tx) => {
      const pack = await this.d.creditPacks.onSale(input.pricingId, tx);
      let amount = pack.priceCents;
      let promoBonus = 0;
      let code: string | null = null;
      if (input.promoCode) {
        const promo = await this.d.promoCodes.redeem(tx, { code: input.promoCode, userId, target: 'PACK', refType: 'payment', refId: id });
        ({ amount, bonusCredits: promoBonus } = discounted(promo, amount));
        code = promo.code;
      }
      if (amount < MIN_CHARGE_CENTS) {
        throw new HttpProblem(422, 'promoCode.belowMinimumCharge', { min: MIN_CHARGE_CENTS / 100, currency: pack.currency }, { errors: [{ field: 'promoCode', key: 'field.belowMinimumCharge' }] });
      }
      const [created] = await tx
        .insert(payments)
        .values({
          id,
          userId,
          kind: 'PACK',
          provider: this.d.provider.name,
          amountCents: amount,
          currency: pack.currency,
          credits: pack.credits + pack.bonusCredits,
          bonusCredits: promoBonus,
          packId: pack.id,
          promoCode: code,
        })
        .returning();
      return created!;
    });
    const user = await this.d.users.get(userId);
    try {
      const intent = await this.d.provider.createPaymentIntent({
        paymentId: id,
        userId,
        email: user?.email ?? null,
        customerId: await this.customer(userId),
        amountCents: row.amountCents,
        currency: row.currency,
        description: `BlockHost: ${row.credits} credits`,
        idempotencyKey: `payment-${idempotencyKey}-${id}`,
      });
      await this.rememberCustomer(userId, intent.customerId);
      await this.db.update(payments).set({ providerPaymentId: intent.providerPaymentId, updatedAt: this.d.clock() }).where(eq(payments.id, id));
      return this.checkout({ ...row, providerPaymentId: intent.providerPaymentId }, intent.clientSecret);
    } catch (err) {
      await this.abandon(row, err);
      throw err;
    }
  }

  /** A subscription period's payment, PENDING in the subscribing transaction until its first invoice is paid (events.ts). */
  async openForSubscription(tx: Tx, userId: string, subscriptionId: string, plan: { priceCents: number; currency: Row['currency']; credits: number }): Promise<Row> {
    const [payment] = await tx
      .insert(payments)
      .values({
        userId,
        kind: 'SUBSCRIPTION',
        provider: this.d.provider.name,
        amountCents: plan.priceCents,
        currency: plan.currency,
        credits: plan.credits,
        subscriptionId,
      })
      .returning();
    return payment!;
  }

  /** A subscription's first payment whose card step never started (the provider refused the subscription). */
  async failSubscriptionPayment(tx: Tx, paymentId: string): Promise<void> {
    await tx.update(payments).set({ status: 'FAILED', failureReason: 'other', updatedAt: this.d.clock() }).where(eq(payments.id, paymentId));
  }

  /** One of the user's payments (the result page follows it); 404 for anyone else's. */
  async get(userId: string, id: string): Promise<Payment> {
    const [row] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.id, id), eq(payments.userId, userId)));
    if (!row) throw notFound('payment');
    return toPayment(row);
  }

  async list(userId: string, window: Window) {
    const where = eq(payments.userId, userId);
    const [rows, [total]] = await Promise.all([
      this.db.select().from(payments).where(where).orderBy(desc(payments.createdAt), desc(payments.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(payments).where(where),
    ]);
    return pageOf(rows.map(toPayment), total?.n ?? 0, window);
  }

  /** The sandbox's card step: the test card decides what happens, through the same events as Stripe's. */
  async confirmSandbox(userId: string, paymentId: string, cardNumber: string): Promise<Payment> {
    const cards = this.cardStep();
    const [row] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)));
    if (!row) throw notFound('payment');
    if (row.status === 'SUCCEEDED' || row.status === 'REFUNDED') throw conflict('payments.alreadySettled', { status: row.status });
    const card = cardNumber.replaceAll(' ', '');
    let events: ProviderEvent[];
    try {
      if (row.kind === 'PACK') {
        if (!row.providerPaymentId) throw conflict('payments.notReady');
        events = cards.confirm(row.providerPaymentId, card, row.amountCents, row.currency);
      } else {
        const subscription = row.subscriptionId ? await this.d.subscriptions.byId(row.subscriptionId) : undefined;
        if (!subscription?.providerSubscriptionId) throw conflict('payments.subscriptionGone');
        const plan = await this.d.subscriptions.plan(subscription.planId);
        const start = this.d.clock();
        events = cards.confirmSubscription(subscription.providerSubscriptionId, card, row.amountCents, row.currency, start, nextPeriod(start, plan!.interval));
      }
    } catch (err) {
      throw providerProblem(err);
    }
    // A declined payment gave its promo code back: paying it after all takes the code again first,
    // and is refused, before any charge, when the code has no use left for the player.
    if (row.promoCode) {
      const code = row.promoCode;
      await this.db.transaction((tx) => this.d.promoCodes.retake(tx, { code, userId, refType: 'payment', refId: row.id }, true));
    }
    for (const event of events) await this.d.events.apply(event);
    const after = await this.get(userId, paymentId);
    if (after.status === 'FAILED') {
      const reason = after.failureReason ?? 'other';
      const key = failureKeys.has(reason) ? (`payments.failure.${reason}` as ErrorKey) : 'payments.failure.other';
      throw new HttpProblem(402, key, {}, { errors: [{ field: 'cardNumber', key }] });
    }
    return after;
  }

  /** The sandbox's next billing period of the player's subscription, on demand (tests pass a period this way). */
  async renewSandbox(userId: string, subscriptionId: string, cardNumber = '4242424242424242'): Promise<Subscription> {
    const cards = this.cardStep();
    const subscription = await this.d.subscriptions.byId(subscriptionId);
    if (!subscription || subscription.userId !== userId) throw notFound('subscription');
    if (subscription.status === 'CANCELED' || !subscription.providerSubscriptionId || !subscription.currentPeriodEnd) throw conflict('payments.noPeriodToRenew', { status: subscription.status });
    const plan = await this.d.subscriptions.plan(subscription.planId);
    if (subscription.cancelAtPeriodEnd) {
      // Cancelled at period end: the period ends and nothing is billed, as Stripe does.
      await this.d.events.apply({ id: `sbx_evt_${randomUUID()}`, type: 'subscription.deleted', providerSubscriptionId: subscription.providerSubscriptionId });
    } else {
      const start = subscription.currentPeriodEnd;
      const events = cards.renew(subscription.providerSubscriptionId, cardNumber, plan!.priceCents, plan!.currency, start, nextPeriod(start, plan!.interval));
      for (const event of events) await this.d.events.apply(event);
    }
    return this.d.subscriptions.view((await this.d.subscriptions.byId(subscriptionId))!);
  }

  /**
   * Staff: refunds what is left of a pack's payment. The provider is asked first, with a key made
   * from the payment and what was refunded so far, so a retry refunds once; the credits come back
   * with its charge.refunded event through `apply`, as every event does (Stripe's webhook, or the
   * sandbox's event played here). Nothing of ours changes before that event, so the audit row,
   * written once the provider has accepted, records the staff's request.
   */
  async refund(actorId: string, paymentId: string, reason: string): Promise<void> {
    const [row] = await this.db.select().from(payments).where(eq(payments.id, paymentId));
    if (!row) throw notFound('payment');
    const now = this.d.clock();
    if (refundPending(row, now)) throw refundAsked(row.refundRequestedAt!);
    if (!isRefundable(row, now)) {
      throw conflict(row.kind === 'PACK' ? 'payments.refundOnlySucceeded' : 'payments.refundSubscription', { status: row.status });
    }
    // The request is claimed first, on the row as it was read: of staff asking at once, or again
    // before the provider's event, one goes on and the others answer 409 and write nothing.
    const [claimed] = await this.db
      .update(payments)
      .set({ refundRequestedAt: now })
      .where(
        and(
          eq(payments.id, row.id),
          eq(payments.status, 'SUCCEEDED'),
          eq(payments.refundedCents, row.refundedCents),
          or(isNull(payments.refundRequestedAt), lt(payments.refundRequestedAt, new Date(now.getTime() - REFUND_WAIT_MS))),
        ),
      )
      .returning({ id: payments.id });
    if (!claimed) throw refundAsked(now);
    const amountCents = row.amountCents - row.refundedCents;
    const reported = await this.d.provider
      .refund({ providerPaymentId: row.providerPaymentId!, amountCents, refundedBeforeCents: row.refundedCents, currency: row.currency, idempotencyKey: `refund-${row.id}-${row.refundedCents}` })
      .catch(async (err: unknown) => {
        // Refused: nothing is waiting for the provider, staff may try again.
        await this.db
          .update(payments)
          .set({ refundRequestedAt: null })
          .where(and(eq(payments.id, row.id), eq(payments.refundRequestedAt, now)));
        throw providerProblem(err);
      });
    await this.db.transaction((tx) =>
      this.d.audit.record(tx, {
        actorId,
        action: 'payment.refund',
        entity: 'payment',
        entityId: row.id,
        reason,
        before: toPayment(row),
        after: { ...toPayment(row), refundRequestedCents: amountCents, refundRequestedAt: now.toISOString() },
      }),
    );
    // What the provider reports at once (the sandbox's charge.refunded) is applied now; Stripe's comes by webhook.
    for (const event of reported) await this.d.events.apply(event);
  }

  /** What the web needs to collect the card of a payment. */
  checkout(row: Row, clientSecret: string | null): PaymentCheckout {
    return {
      paymentId: row.id,
      provider: this.d.provider.name,
      amountCents: row.amountCents,
      currency: row.currency,
      credits: row.credits,
      bonusCredits: row.bonusCredits,
      clientSecret,
      publishableKey: this.d.provider.publishableKey,
    };
  }

  /** A payment whose card step never started (the provider refused it): FAILED, its promo use given back. */
  private async abandon(row: Row, err: unknown): Promise<never> {
    await this.db.transaction(async (tx) => {
      await tx.update(payments).set({ status: 'FAILED', failureReason: 'other', updatedAt: this.d.clock() }).where(eq(payments.id, row.id));
      if (row.promoCode) await this.d.promoCodes.release(tx, { code: row.promoCode, userId: row.userId, refType: 'payment', refId: row.id });
    });
    throw providerProblem(err);
  }

  /** The card step played on the server: the sandbox's; Stripe collects cards in the browser. */
  private cardStep(): ServerCardStep {
    if (!this.d.provider.cardStep) throw new HttpProblem(404, 'payments.sandboxOff');
    return this.d.provider.cardStep;
  }

  /** The player's customer id at the provider, once one was made. */
  async customer(userId: string): Promise<string | null> {
    const [row] = await this.db
      .select()
      .from(paymentCustomers)
      .where(and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.provider, this.d.provider.name)));
    return row?.customerId ?? null;
  }

  async rememberCustomer(userId: string, customerId: string | null, executor: Executor = this.db): Promise<void> {
    if (!customerId) return;
    await executor.insert(paymentCustomers).values({ userId, provider: this.d.provider.name, customerId }).onConflictDoNothing();
  }
}

/** The end of a billing period that starts at `start`. */
function nextPeriod(start: Date, interval: 'MONTH' | 'YEAR'): Date {
  const end = new Date(start);
  if (interval === 'MONTH') end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  // A 31st has no 31st next month: JavaScript rolls over, Stripe keeps the month's last day.
  if (end.getUTCDate() !== start.getUTCDate()) end.setUTCDate(0);
  return end.getTime() - start.getTime() > 400 * DAY_MS ? new Date(start.getTime() + 366 * DAY_MS) : end;
}

/** A refund asked already and not yet confirmed by the provider. */
function refundAsked(at: Date): HttpProblem {
  return conflict('payments.refundAsked', { at: at.toISOString() });
}

/** What a provider's refusal says to the caller, by its status: its own text is English and may name internals. */
const providerKeys: Record<number, ErrorKey> = { 400: 'payments.provider.rejected', 402: 'payments.provider.cardRefused', 409: 'payments.provider.conflict' };

/** A provider's refusal as the API answers it. */
export function providerProblem(err: unknown): Error {
  if (err instanceof HttpProblem) return err;
  if (err instanceof PaymentProviderError) return new HttpProblem(err.status, err.key ?? providerKeys[err.status] ?? 'payments.provider.unavailable', err.params);
  return err instanceof Error ? err : new Error(String(err));
}
