import { Type, type Static } from 'typebox';
import { DateTime, Id, literals, Nullable } from './common.ts';
import { gameStatuses } from './values.ts';

// A game's periods and their renewals (docs/architecture.md, "Money").

const gamePaymentStatuses = ['PAID', 'PENDING', 'CANCELED'] as const;
/**
 * One period of a game: the first is PAID at creation; each next one is created PENDING
 * RENEWAL_NOTICE_DAYS before the game's periodEnd. PENDING stays PENDING after its due date (the
 * game then expires): whether it is due or overdue follows from the dates, not from the status.
 */
export const GamePayment = Type.Object({
  id: Id,
  gameId: Id,
  gameName: Type.String(),
  status: literals(gamePaymentStatuses),
  amountCredits: Type.Integer(),
  periodStart: DateTime,
  periodEnd: DateTime,
  /** The promo code that lowered it (the first period only). */
  promoCode: Type.Optional(Nullable(Type.String())),
  paidAt: Nullable(DateTime),
  canceledAt: Nullable(DateTime),
  createdAt: DateTime,
});
export type GamePayment = Static<typeof GamePayment>;

export const GamePaymentQuery = Type.Object(
  {
    status: Type.Optional(literals(gamePaymentStatuses)),
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
  },
  { additionalProperties: false },
);

/** What paying a renewal answers: the payment and the game's new period end. */
export const GamePaymentResult = Type.Object({ payment: GamePayment, periodEnd: Nullable(DateTime), status: literals(gameStatuses) });
export type GamePaymentResult = Static<typeof GamePaymentResult>;

export const gamePaymentRequestUpdate = Type.Object(
  { paymentId: Id, action: Type.Union([Type.Literal('PAY'), Type.Literal('CANCEL')]) },
  { $id: 'gamePaymentRequestUpdate', additionalProperties: false },
);
