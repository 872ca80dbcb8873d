import type { gamePayments } from '../../../db/schema/renewals.ts';
import type { GamePayment } from '../../../../contract/renewals.ts';

export type PaymentRow = typeof gamePayments.$inferSelect;
export type PaymentStatus = PaymentRow['status'];

/** A game payment as the API answers it: in the renewals' lists, and with a game (its waiting renewal). */
export function toGamePayment(row: PaymentRow, gameName: string): GamePayment {
  return {
    id: row.id,
    gameId: row.gameId,
    gameName,
    status: row.status,
    amountCredits: row.amountCredits,
    periodStart: row.periodStart.toISOString(),
    periodEnd: row.periodEnd.toISOString(),
    promoCode: row.promoCode,
    paidAt: row.paidAt?.toISOString() ?? null,
    canceledAt: row.canceledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
