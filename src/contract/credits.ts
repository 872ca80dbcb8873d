import { Type, type Static } from 'typebox';
import { Id } from './common.ts';
import { MessageParams } from './notifications.ts';

/** What moved a balance: one ledger row each. */
export const ledgerKinds = [
  'ADMIN_ADJUSTMENT',
  'PURCHASE',
  'SUBSCRIPTION',
  'PROMO_BONUS',
  'GAME_CHARGE',
  'GAME_RENEWAL',
  'GAME_OFFER_CHANGE',
  'REFUND',
  'FORFEIT',
  'TOURNAMENT_FEE',
  'TOURNAMENT_REFUND',
  'TOURNAMENT_PRIZE',
] as const;

export type LedgerKind = (typeof ledgerKinds)[number];

export const LedgerEntry = Type.Object({
  id: Id,
  amount: Type.Integer(),
  balanceAfter: Type.Integer(),
  kind: Type.String(),
  /** In the user's saved locale; `reasonKey` (under `ledger` in locales/{fr,en}/messages.json) and `reasonParams` render it in another. */
  reason: Type.String(),
  reasonKey: Type.String(),
  reasonParams: MessageParams,
  refType: Type.Union([Type.String(), Type.Null()]),
  refId: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});

export type LedgerEntry = Static<typeof LedgerEntry>;
