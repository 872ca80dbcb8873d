import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, exists, inArray, isNull, lt, notInArray, or } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../../db/client.ts';
import { paymentCustomers, payments, providerEvents, rejectedProviderEvents } from '../../../db/schema/payments.ts';
import { conflict, HttpProblem, notFound, type ErrorKey } from '../../../lib/problems.ts';
import { pageOf, type Window } from '../../../lib/paging.ts';
import { MalformedEventError, PaymentProviderError, type PaymentProvider, type ProviderEvent, type ServerCardStep } from '../providers/provider.ts';
import type { AuditService } from '../../audit/service.ts';
import type { CreditsService } from '../credits/service.ts';
import type { InvoicesService } from '../invoices/service.ts';
import type { NotificationsService } from '../../notifications/service.ts';
import type { PricingService } from '../pricing/service.ts';
import { discounted, type PromoCodesService } from '../promocodes/service.ts';
import type { SubscriptionsService } from '../subscriptions/service.ts';
import type { UsersService } from '../../users/service.ts';
import type { Payment, PaymentCheckout, Subscription } from '../../../../contract/credits.ts';

type Row = typeof payments.$inferSelect;
/** An invoice line's text: a message key and its parameters, rendered in the reader's language. */
type LineText = { key: string; params: Record<string, string | number> };
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
  pricing: PricingService;
  promoCodes: PromoCodesService;
  subscriptions: SubscriptionsService;
  invoices: InvoicesService;
  credits: CreditsService;
  notifications: NotificationsService;
  audit: AuditService;
  clock: () => Date;
  /** Where what staff should know goes (an event's amount that does not match its payment). */
  log?: { warn(obj: object, msg: string): void };
}

const quiet = { warn() {} };

/**
 * Card payments: credit packs and subscription periods. A payment is created PENDING with what it
 * will credit; the provider collects the card; credits arrive only from the provider's event,
 * applied once (`provider_events` holds its id) in one transaction with the ledger rows and the
 * invoice. Stripe's webhook and the sandbox's confirm both end in `apply`.
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
      const pack = await this.d.pricing.onSale(input.pricingId, tx);
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

  /** Subscribes the player to a plan: INCOMPLETE until its first period is paid. */
  async subscribe(userId: string, planId: string, idempotencyKey: string): Promise<PaymentCheckout & { subscription: Subscription }> {
    const plan = await this.d.subscriptions.planOnSale(planId);
    const paymentId = randomUUID();
    const { subscription, payment } = await this.db.transaction(async (tx) => {
      const subscription = await this.d.subscriptions.open(tx, userId, plan.id, this.d.provider.name);
      const [payment] = await tx
        .insert(payments)
        .values({
          id: paymentId,
          userId,
          kind: 'SUBSCRIPTION',
          provider: this.d.provider.name,
          amountCents: plan.priceCents,
          currency: plan.currency,
          credits: plan.credits,
          subscriptionId: subscription.id,
        })
        .returning();
      return { subscription, payment: payment! };
    });
    const user = await this.d.users.get(userId);
    try {
      const created = await this.d.provider.createSubscription({
        subscriptionId: subscription.id,
        userId,
        email: user?.email ?? null,
        customerId: await this.customer(userId),
        plan: { planId: plan.id, name: plan.name.en, priceCents: plan.priceCents, currency: plan.currency, interval: plan.interval, providerPriceId: plan.providerPriceId },
        idempotencyKey: `subscription-${idempotencyKey}-${subscription.id}`,
      });
      await this.rememberCustomer(userId, created.customerId);
      if (created.providerPriceId && created.providerPriceId !== plan.providerPriceId) await this.d.subscriptions.rememberProviderPrice(plan.id, created.providerPriceId);
      // The first period's payment is matched to the provider's first invoice when it is paid (invoice.paid).
      await this.d.subscriptions.setProviderId(subscription.id, created.providerSubscriptionId);
      const view = await this.d.subscriptions.view({ ...subscription, providerSubscriptionId: created.providerSubscriptionId });
      return { ...this.checkout(payment, created.clientSecret), subscription: view };
    } catch (err) {
      await this.db.transaction(async (tx) => {
        await this.d.subscriptions.applyProviderState(tx, subscription.id, { status: 'CANCELED' });
        await tx.update(payments).set({ status: 'FAILED', failureReason: 'other', updatedAt: this.d.clock() }).where(eq(payments.id, paymentId));
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
  async cancelSubscription(userId: string): Promise<Subscription> {
    const current = await this.d.subscriptions.current(userId);
    if (!current) throw notFound('subscription');
    if (current.providerSubscriptionId) {
      await this.d.provider.cancelSubscription(current.providerSubscriptionId, `cancel-${current.id}-${randomUUID()}`).catch((err: unknown) => {
        throw providerProblem(err);
      });
    }
    // An unpaid subscription has no period to run to: it ends now.
    const endsNow = current.status === 'INCOMPLETE';
    await this.db.transaction((tx) => this.d.subscriptions.applyProviderState(tx, current.id, endsNow ? { status: 'CANCELED' } : { cancelAtPeriodEnd: true }));
    return this.d.subscriptions.view((await this.d.subscriptions.byId(current.id))!);
  }

  /** Takes back a cancellation; the provider's idempotency key is made as the cancellation's is. */
  async resumeSubscription(userId: string): Promise<Subscription> {
    const current = await this.d.subscriptions.current(userId);
    if (!current) throw notFound('subscription');
    if (!current.cancelAtPeriodEnd) throw conflict('payments.subscriptionNotCancelling');
    if (current.providerSubscriptionId) {
      await this.d.provider.resumeSubscription(current.providerSubscriptionId, `resume-${current.id}-${randomUUID()}`).catch((err: unknown) => {
        throw providerProblem(err);
      });
    }
    await this.db.transaction((tx) => this.d.subscriptions.applyProviderState(tx, current.id, { cancelAtPeriodEnd: false }));
    return this.d.subscriptions.view((await this.d.subscriptions.byId(current.id))!);
  }

  async mySubscription(userId: string): Promise<Subscription | null> {
    const current = await this.d.subscriptions.current(userId);
    return current ? this.d.subscriptions.view(current) : null;
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
    for (const event of events) await this.apply(event);
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
      await this.apply({ id: `sbx_evt_${randomUUID()}`, type: 'subscription.deleted', providerSubscriptionId: subscription.providerSubscriptionId });
    } else {
      const start = subscription.currentPeriodEnd;
      const events = cards.renew(subscription.providerSubscriptionId, cardNumber, plan!.priceCents, plan!.currency, start, nextPeriod(start, plan!.interval));
      for (const event of events) await this.apply(event);
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
    for (const event of reported) await this.apply(event);
  }

  /** Stripe's webhook: the signature checked, then the event applied once. */
  async webhook(rawBody: Buffer, signature: string | undefined): Promise<void> {
    let event: ProviderEvent;
    try {
      event = this.d.provider.parseWebhook(rawBody, signature);
    } catch (err) {
      if (err instanceof MalformedEventError) {
        await this.db.insert(rejectedProviderEvents).values({ provider: this.d.provider.name, eventId: err.eventId, type: err.eventType, problem: err.message.slice(0, 1000) });
        this.log.warn({ eventId: err.eventId, type: err.eventType, problem: err.message }, 'signed payment event refused: it cannot be read');
      }
      throw err;
    }
    await this.apply(event);
  }

  /**
   * Applies a provider event once: its id is recorded in the transaction that acts on it, so a
   * replay (or ten at once) finds the row and changes nothing. Events about objects we did not
   * create are recorded and ignored.
   */
  async apply(event: ProviderEvent): Promise<void> {
    await this.db.transaction(async (tx) => {
      // A pack paid, most events by far: recorded in the statement that claims its payment.
      if (event.type === 'payment.succeeded') return this.paymentSucceeded(tx, event);
      const [fresh] = await tx.insert(providerEvents).values({ id: event.id, provider: this.d.provider.name, type: event.type }).onConflictDoNothing().returning({ id: providerEvents.id });
      if (!fresh) return;
      switch (event.type) {
        case 'payment.failed':
          await this.paymentFailed(tx, { providerPaymentId: event.providerPaymentId }, event.reason);
          return;
        case 'invoice.paid':
          return this.invoicePaid(tx, event);
        case 'invoice.failed': {
          const subscription = await this.d.subscriptions.byProviderId(event.providerSubscriptionId, tx);
          if (!subscription) return;
          if (subscription.status === 'ACTIVE') await this.d.subscriptions.applyProviderState(tx, subscription.id, { status: 'PAST_DUE' });
          await this.paymentFailed(tx, { subscriptionId: subscription.id }, event.reason);
          return;
        }
        case 'subscription.updated': {
          const subscription = await this.d.subscriptions.byProviderId(event.providerSubscriptionId, tx);
          if (!subscription) return;
          // INCOMPLETE is Stripe's word before the first invoice is paid; invoice.paid moves us on.
          const status = event.status === 'INCOMPLETE' && subscription.status !== 'INCOMPLETE' ? undefined : event.status;
          await this.d.subscriptions.applyProviderState(tx, subscription.id, { ...(status ? { status } : {}), periodEnd: event.currentPeriodEnd, cancelAtPeriodEnd: event.cancelAtPeriodEnd });
          return;
        }
        case 'subscription.deleted': {
          const subscription = await this.d.subscriptions.byProviderId(event.providerSubscriptionId, tx);
          if (subscription) await this.d.subscriptions.applyProviderState(tx, subscription.id, { status: 'CANCELED' });
          return;
        }
        case 'charge.refunded':
          await this.refunded(tx, event.providerPaymentId, event.amountRefundedCents);
          return;
        case 'ignored':
          return;
      }
    });
  }

  /**
   * One statement records the event and claims its payment (PENDING or FAILED → SUCCEEDED) when it
   * paid the payment's amount in its currency: a replay records nothing, so claims nothing; an event
   * about a payment another transaction is settling waits for that row's lock, then finds it
   * SUCCEEDED and claims nothing either. An event with another amount or currency credits nothing.
   */
  private async paymentSucceeded(tx: Tx, event: Extract<ProviderEvent, { type: 'payment.succeeded' }>): Promise<void> {
    const now = this.d.clock();
    const fresh = tx.$with('fresh').as(tx.insert(providerEvents).values({ id: event.id, provider: this.d.provider.name, type: event.type }).onConflictDoNothing().returning({ id: providerEvents.id }));
    const [row] = await tx
      .with(fresh)
      .update(payments)
      .set({ status: 'SUCCEEDED', failureReason: null, settledAt: now, updatedAt: now })
      .where(
        and(
          eq(payments.providerPaymentId, event.providerPaymentId),
          notInArray(payments.status, ['SUCCEEDED', 'REFUNDED']),
          eq(payments.amountCents, event.amountCents),
          eq(payments.currency, event.currency),
          exists(tx.select().from(fresh)),
        ),
      )
      .returning();
    if (!row) {
      await this.amountMismatch(tx, event, now);
      return;
    }
    if (row.promoCode) {
      // Held since the payment was made, unless a decline gave it back: then it is taken again.
      const use = await this.d.promoCodes.retake(tx, { code: row.promoCode, userId: row.userId, refType: 'payment', refId: row.id }, false);
      if (use === 'over') {
        await tx.update(payments).set({ flag: 'PROMO_OVER_LIMIT', flaggedAt: now }).where(eq(payments.id, row.id));
        this.log.warn({ paymentId: row.id, promoCode: row.promoCode }, 'a declined payment paid after all used a promo code past its limit');
      }
    }
    await this.credit(tx, row, [{ key: row.bonusCredits > 0 ? 'packBonus' : 'pack', params: { credits: row.credits, bonus: row.bonusCredits } }], now);
  }

  /**
   * A payment's success event with another amount or currency than the payment's: nothing is
   * credited, the payment FAILED (its promo use given back) and flagged for staff with what the event
   * said, and logged. Its replays find it flagged and change nothing.
   */
  private async amountMismatch(tx: Tx, event: Extract<ProviderEvent, { type: 'payment.succeeded' }>, now: Date): Promise<void> {
    const [row] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.providerPaymentId, event.providerPaymentId), notInArray(payments.status, ['SUCCEEDED', 'REFUNDED'])))
      .for('update');
    if (!row || (row.amountCents === event.amountCents && row.currency === event.currency) || row.flag === 'AMOUNT_MISMATCH') return;
    await tx
      .update(payments)
      .set({ status: 'FAILED', failureReason: 'other', flag: 'AMOUNT_MISMATCH', flaggedAt: now, reportedAmountCents: event.amountCents, reportedCurrency: event.currency, updatedAt: now })
      .where(eq(payments.id, row.id));
    if (row.promoCode) await this.d.promoCodes.release(tx, { code: row.promoCode, userId: row.userId, refType: 'payment', refId: row.id });
    this.log.warn(
      { paymentId: row.id, eventId: event.id, expected: { amountCents: row.amountCents, currency: row.currency }, reported: { amountCents: event.amountCents, currency: event.currency } },
      'payment event amount or currency does not match the payment: nothing credited, flagged for staff',
    );
  }

  private get log() {
    return this.d.log ?? quiet;
  }

  private async invoicePaid(tx: Tx, event: Extract<ProviderEvent, { type: 'invoice.paid' }>): Promise<void> {
    const subscription = await this.d.subscriptions.byProviderId(event.providerSubscriptionId, tx);
    if (!subscription) return;
    const plan = await this.d.subscriptions.plan(subscription.planId, tx);
    // The period's payment: the one waiting for this invoice (the first, made at subscribe), else a new one.
    const [waiting] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.subscriptionId, subscription.id), inArray(payments.status, ['PENDING', 'FAILED']), isNull(payments.providerPaymentId)))
      .orderBy(desc(payments.createdAt))
      .limit(1)
      .for('update');
    let row: Row;
    if (waiting) {
      [row] = (await tx.update(payments).set({ providerPaymentId: event.providerInvoiceId }).where(eq(payments.id, waiting.id)).returning()) as [Row];
    } else {
      [row] = (await tx
        .insert(payments)
        .values({
          userId: subscription.userId,
          kind: 'SUBSCRIPTION',
          provider: this.d.provider.name,
          providerPaymentId: event.providerInvoiceId,
          amountCents: event.amountCents,
          currency: event.currency,
          credits: plan!.credits,
          subscriptionId: subscription.id,
        })
        .returning()) as [Row];
    }
    await this.d.subscriptions.applyProviderState(tx, subscription.id, { status: 'ACTIVE', periodStart: event.periodStart, periodEnd: event.periodEnd });
    const date = (d: Date) => d.toISOString().slice(0, 10);
    await this.settle(tx, { ...row, amountCents: event.amountCents }, [
      { key: 'subscription', params: { planFr: plan!.name.fr, planEn: plan!.name.en, from: date(event.periodStart), to: date(event.periodEnd), credits: row.credits } },
    ]);
  }

  /** The payment SUCCEEDED, its credits in the ledger and its invoice, in the event's transaction. */
  private async settle(tx: Tx, row: Row, lines: LineText[]): Promise<void> {
    const now = this.d.clock();
    await tx.update(payments).set({ status: 'SUCCEEDED', failureReason: null, settledAt: now, amountCents: row.amountCents, updatedAt: now }).where(eq(payments.id, row.id));
    await this.credit(tx, row, lines, now);
  }

  /** A SUCCEEDED payment's credits in the ledger, its invoice and the buyer's notice. */
  private async credit(tx: Tx, row: Row, lines: LineText[], now: Date): Promise<void> {
    const subscription = row.kind === 'SUBSCRIPTION';
    await this.d.credits.apply(tx, {
      userId: row.userId,
      amount: row.credits,
      kind: subscription ? 'SUBSCRIPTION' : 'PURCHASE',
      reason: { key: subscription ? 'subscription' : 'pack', params: { credits: row.credits } },
      refType: 'payment',
      refId: row.id,
    });
    if (row.bonusCredits > 0) {
      await this.d.credits.apply(tx, {
        userId: row.userId,
        amount: row.bonusCredits,
        kind: 'PROMO_BONUS',
        reason: { key: 'promoBonus', params: { code: row.promoCode ?? '', credits: row.bonusCredits } },
        refType: 'payment',
        refId: row.id,
      });
    }
    const total = row.credits + row.bonusCredits;
    await this.d.notifications.notify(row.userId, { key: 'payment.received', params: { credits: total }, link: '/dashboard/account' }, tx);
    const user = await this.d.users.get(row.userId, tx);
    // Last before the commit: the year's invoice counter stays locked until then, and every payment waits for it.
    await this.d.invoices.issue(tx, {
      userId: row.userId,
      paymentId: row.id,
      buyer: { name: user?.name ?? row.userId, email: user?.email ?? null },
      lines: lines.map((description) => ({ description, quantity: 1, unitCents: row.amountCents, totalCents: row.amountCents })),
      currency: row.currency,
      totalCents: row.amountCents,
      issuedAt: now,
    });
  }

  private async paymentFailed(tx: Tx, which: { providerPaymentId?: string; subscriptionId?: string }, reason: string): Promise<void> {
    const where = which.providerPaymentId ? eq(payments.providerPaymentId, which.providerPaymentId) : and(eq(payments.subscriptionId, which.subscriptionId!), eq(payments.status, 'PENDING'));
    const [row] = await tx.select().from(payments).where(where).orderBy(desc(payments.createdAt)).limit(1).for('update');
    // A failed attempt can be followed by a good card on the same payment: FAILED is not final.
    if (!row || row.status === 'SUCCEEDED' || row.status === 'REFUNDED') return;
    await tx.update(payments).set({ status: 'FAILED', failureReason: reason, updatedAt: this.d.clock() }).where(eq(payments.id, row.id));
    // A code counts only for a payment that succeeds: a declined one gives it back at once.
    if (row.promoCode) await this.d.promoCodes.release(tx, { code: row.promoCode, userId: row.userId, refType: 'payment', refId: row.id });
  }

  /**
   * A refund: the credits it bought come back out of the balance (never below zero) and a credit
   * note is issued for what was refunded this time.
   */
  private async refunded(tx: Tx, providerPaymentId: string, amountRefundedCents: number): Promise<void> {
    const [row] = await tx.select().from(payments).where(eq(payments.providerPaymentId, providerPaymentId)).for('update');
    if (!row || row.status !== 'SUCCEEDED' || amountRefundedCents <= row.refundedCents) return;
    const now = this.d.clock();
    const refundedNow = Math.min(amountRefundedCents, row.amountCents) - row.refundedCents;
    const full = amountRefundedCents >= row.amountCents;
    await tx
      .update(payments)
      .set({ refundedCents: Math.min(amountRefundedCents, row.amountCents), status: full ? 'REFUNDED' : 'SUCCEEDED', refundRequestedAt: null, updatedAt: now })
      .where(eq(payments.id, row.id));
    const bought = row.credits + row.bonusCredits;
    const due = full ? bought - Math.floor((bought * row.refundedCents) / row.amountCents) : Math.floor((bought * refundedNow) / row.amountCents);
    const take = Math.min(due, await this.d.credits.balance(row.userId, tx));
    if (take > 0) await this.d.credits.apply(tx, { userId: row.userId, amount: -take, kind: 'REFUND', reason: { key: 'refund', params: { credits: take } }, refType: 'payment', refId: row.id });
    const invoice = await this.d.invoices.ofPayment(row.id, tx);
    const user = await this.d.users.get(row.userId, tx);
    await this.d.invoices.issue(tx, {
      kind: 'CREDIT_NOTE',
      creditedInvoiceId: invoice?.id ?? null,
      userId: row.userId,
      paymentId: row.id,
      buyer: { name: user?.name ?? row.userId, email: user?.email ?? null },
      lines: [{ description: { key: 'refund', params: { what: invoice?.number ?? row.id } }, quantity: 1, unitCents: -refundedNow, totalCents: -refundedNow }],
      currency: row.currency,
      totalCents: -refundedNow,
      issuedAt: now,
    });
  }

  private checkout(row: Row, clientSecret: string | null): PaymentCheckout {
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

  private async customer(userId: string): Promise<string | null> {
    const [row] = await this.db
      .select()
      .from(paymentCustomers)
      .where(and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.provider, this.d.provider.name)));
    return row?.customerId ?? null;
  }

  private async rememberCustomer(userId: string, customerId: string | null, executor: Executor = this.db): Promise<void> {
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
function providerProblem(err: unknown): Error {
  if (err instanceof HttpProblem) return err;
  if (err instanceof PaymentProviderError) return new HttpProblem(err.status, err.key ?? providerKeys[err.status] ?? 'payments.provider.unavailable', err.params);
  return err instanceof Error ? err : new Error(String(err));
}
