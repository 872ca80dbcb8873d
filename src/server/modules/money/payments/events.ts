import { and, desc, eq, exists, inArray, isNull, notInArray } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client.ts';
import { payments, providerEvents, rejectedProviderEvents } from '../../../db/schema/payments.ts';
import { MalformedEventError, type PaymentProvider, type ProviderEvent } from '../providers/provider.ts';
import type { CreditsService } from '../credits/service.ts';
import type { InvoicesService } from '../invoices/service.ts';
import type { NotificationsService } from '../../notifications/service.ts';
import type { PromoCodesService } from '../promocodes/service.ts';
import type { SubscriptionsService } from '../subscriptions/service.ts';
import type { UsersService } from '../../users/service.ts';

type Row = typeof payments.$inferSelect;
/** An invoice line's text: a message key and its parameters, rendered in the reader's language. */
type LineText = { key: string; params: Record<string, string | number> };

const quiet = { warn() {} };

export interface PaymentEventsDeps {
  provider: PaymentProvider;
  users: UsersService;
  promoCodes: PromoCodesService;
  subscriptions: SubscriptionsService;
  invoices: InvoicesService;
  credits: CreditsService;
  notifications: NotificationsService;
  clock: () => Date;
  /** Where what staff should know goes (an event's amount that does not match its payment). */
  log?: { warn(obj: object, msg: string): void };
}

/**
 * What the card provider tells us happened (docs/decisions.md, "Money in one place"): Stripe's
 * webhook, or the sandbox's events played by the calls. Each event is applied once, in one
 * transaction with what it does: a payment settled (its credits in the ledger, its invoice, the
 * buyer's notice), failed or refunded, a subscription's period paid or its state changed.
 */
export class PaymentEvents {
  private readonly db: Db;
  private readonly d: PaymentEventsDeps;

  constructor(db: Db, deps: PaymentEventsDeps) {
    this.db = db;
    this.d = deps;
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
}
