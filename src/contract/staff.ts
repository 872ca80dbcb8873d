import { Type, type Static, type TSchema } from 'typebox';
import { DateTime, Id, Nullable, PageQuery } from './common.ts';
import { LedgerEntry, ledgerKinds } from './credits.ts';
import { Invoice } from './invoices.ts';
import { paymentFlags, paymentStatuses } from './payments.ts';
import { subscriptionStatuses } from './subscriptions.ts';

/**
 * The query of every `/v1/staff/*` list: the paging of docs/conventions.md (An API call) plus `sort` as `field,asc` or
 * `field,desc` (each list names the fields it sorts by) and the list's own filters.
 */
export const StaffListQuery = <F extends Record<string, TSchema>>(sortFields: readonly string[], filters: F) =>
  Type.Object(
    {
      ...PageQuery.properties,
      sort: Type.Optional(Type.String({ pattern: `^(${sortFields.join('|')}),(asc|desc)$`, maxLength: 64, description: `One of ${sortFields.join(', ')}, then ",asc" or ",desc"` })),
      ...filters,
    },
    { additionalProperties: false },
  );

/** `sort=field,dir` split, or the list's default. */
export function parseSort<F extends string>(sort: string | undefined, fallback: { field: F; desc: boolean }): { field: F; desc: boolean } {
  if (!sort) return fallback;
  const [field, dir] = sort.split(',');
  return { field: field as F, desc: dir === 'desc' };
}

export const AuditQuery = StaffListQuery(['createdAt'], {
  actorId: Type.Optional(Id),
  entity: Type.Optional(Type.String({ pattern: '^[a-zA-Z]{1,32}$', maxLength: 32 })),
  entityId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  from: Type.Optional(DateTime),
  to: Type.Optional(DateTime),
});
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditEntry = Type.Object({
  id: Id,
  actorId: Id,
  actorName: Type.String(),
  action: Type.String({ description: '`entity.verb`, e.g. `pricing.update`, `user.credit`' }),
  entity: Type.String(),
  entityId: Type.String(),
  /** What staff call the entity: a game's or a user's name now, else the name, label or code it was written with; null when it has none. */
  entityName: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  before: Type.Unknown({ description: 'The entity before the change (null for a creation)' }),
  after: Type.Unknown({ description: 'The entity after the change (null for a deletion)' }),
  createdAt: DateTime,
});
export type AuditEntry = Static<typeof AuditEntry>;

/** The body of a staff action that asks why (a refund, a stopped game, a hidden review...). */
export const StaffReason = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'Why, kept in the audit log' }) }, { additionalProperties: false });
export type StaffReason = Static<typeof StaffReason>;

export const StaffUsersQuery = StaffListQuery(['name', 'createdAt', 'balance'], {
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A prefix of the name, the email or the Minecraft name, any case' })),
});
export type StaffUsersQuery = Static<typeof StaffUsersQuery>;

export const StaffUser = Type.Object({
  id: Id,
  name: Type.String(),
  email: Nullable(Type.String()),
  mcName: Nullable(Type.String()),
  roles: Type.Array(Type.String()),
  balance: Type.Integer(),
  createdAt: DateTime,
});
export type StaffUser = Static<typeof StaffUser>;

export const StaffPaymentsQuery = StaffListQuery(['createdAt', 'amountCents'], {
  userId: Type.Optional(Id),
  status: Type.Optional(Type.Enum(paymentStatuses)),
});
export type StaffPaymentsQuery = Static<typeof StaffPaymentsQuery>;

export const StaffPayment = Type.Object({
  id: Id,
  userId: Id,
  userName: Type.String(),
  kind: Type.Enum(['PACK', 'SUBSCRIPTION'] as const),
  status: Type.Enum(paymentStatuses),
  amountCents: Type.Integer(),
  currency: Type.String(),
  credits: Type.Integer(),
  bonusCredits: Type.Integer(),
  provider: Type.String(),
  providerId: Nullable(Type.String({ description: "The provider's payment (pi_...) or invoice (in_...)" })),
  promoCode: Nullable(Type.String()),
  invoiceId: Nullable(Id),
  refundable: Type.Boolean({ description: 'A paid pack not wholly refunded, with no refund waiting for the provider' }),
  refundedCents: Type.Integer(),
  /** When staff asked for a refund the provider has not confirmed yet (its charge.refunded). */
  refundRequestedAt: Nullable(DateTime),
  failureReason: Nullable(Type.String()),
  flag: Nullable(
    Type.Enum(paymentFlags, {
      description:
        'Why staff should look at it: AMOUNT_MISMATCH, the provider reported another amount or currency (reportedAmountCents, reportedCurrency) and nothing was credited; PROMO_OVER_LIMIT, a declined payment paid after all took a promo code use the code no longer had',
    }),
  ),
  flaggedAt: Nullable(DateTime),
  reportedAmountCents: Nullable(Type.Integer()),
  reportedCurrency: Nullable(Type.String()),
  createdAt: DateTime,
  settledAt: Nullable(DateTime),
});
export type StaffPayment = Static<typeof StaffPayment>;

export const StaffUserDetail = Type.Object({
  ...StaffUser.properties,
  subscription: Nullable(
    Type.Object({
      planId: Id,
      planName: Type.Object({ fr: Type.String(), en: Type.String() }),
      status: Type.Enum(subscriptionStatuses),
      currentPeriodEnd: Nullable(DateTime),
      cancelAtPeriodEnd: Type.Boolean(),
    }),
  ),
  games: Type.Array(Type.Object({ id: Id, name: Type.String(), status: Type.String(), periodEnd: DateTime })),
  payments: Type.Array(StaffPayment, { description: 'The latest 20' }),
});
export type StaffUserDetail = Static<typeof StaffUserDetail>;

export const StaffTransactionsQuery = StaffListQuery(['createdAt', 'amount'], {
  userId: Type.Optional(Id),
  kind: Type.Optional(Type.Enum(ledgerKinds)),
  from: Type.Optional(DateTime),
  to: Type.Optional(DateTime),
});
export type StaffTransactionsQuery = Static<typeof StaffTransactionsQuery>;

export const StaffTransaction = Type.Object({
  ...LedgerEntry.properties,
  userId: Id,
  userName: Type.String(),
  createdBy: Nullable(Id),
});
export type StaffTransaction = Static<typeof StaffTransaction>;

export const StaffInvoicesQuery = StaffListQuery(['issuedAt', 'number'], { userId: Type.Optional(Id) });
export type StaffInvoicesQuery = Static<typeof StaffInvoicesQuery>;

export const StaffInvoice = Type.Object({ ...Invoice.properties, userId: Id, userName: Type.String() });
export type StaffInvoice = Static<typeof StaffInvoice>;

/** Who used a promo code, and on what. */
export const PromoCodeUse = Type.Object({ userId: Id, userName: Type.String(), usedAt: DateTime, paymentId: Nullable(Id), gameId: Nullable(Id) });
export type PromoCodeUse = Static<typeof PromoCodeUse>;

/** A user's credits changed by staff: the new balance and its ledger row. */
export const UserCreditAdded = Type.Object({ userId: Id, balance: Type.Integer(), entryId: Id });
