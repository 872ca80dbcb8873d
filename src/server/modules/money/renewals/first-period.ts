import type { Tx } from '../../../db/client.ts';
import { gamePayments } from '../../../db/schema/renewals.ts';
import type { LocalizedText } from '../../../../contract/games.ts';
import type { CreditsService } from '../credits/service.ts';
import { discounted, type PromoCodesService } from '../promocodes/service.ts';

/** What a game's first period is bought with. */
export interface FirstPeriodPurchase {
  gameId: string;
  ownerId: string;
  gameName: string;
  package: { name: LocalizedText; priceCredits: number; periodDays: number };
  /** A code for a percentage off the first period only: renewals are at the package's price. */
  promoCode?: string;
  periodStart: Date;
  periodEnd: Date;
}

/**
 * The money side of buying a game (docs/decisions.md, "Money in one place"): its promo code's use
 * counted, the ledger charged and the first game payment written PAID, in the buying transaction
 * the games module passes, so a short balance (402) or an unusable code (404, 422) leaves neither a
 * charge, a use nor a game.
 */
export class FirstPeriod {
  private readonly credits: CreditsService;
  private readonly promoCodes: PromoCodesService;

  constructor(deps: { credits: CreditsService; promoCodes: PromoCodesService }) {
    this.credits = deps.credits;
    this.promoCodes = deps.promoCodes;
  }

  async charge(tx: Tx, purchase: FirstPeriodPurchase): Promise<void> {
    const { gameId, ownerId, package: pkg } = purchase;
    let price = pkg.priceCredits;
    let promo: { code: string; percent: number } | undefined;
    if (purchase.promoCode !== undefined) {
      const code = await this.promoCodes.redeem(tx, { code: purchase.promoCode, userId: ownerId, target: 'GAME', refType: 'game', refId: gameId });
      price = discounted(code, price).amount;
      promo = { code: code.code, percent: code.value };
    }
    if (price > 0) {
      await this.credits.apply(tx, {
        userId: ownerId,
        amount: -price,
        kind: 'GAME_CHARGE',
        reason: { key: promo ? 'gameChargePromo' : 'gameCharge', params: { name: purchase.gameName, package: pkg.name, days: pkg.periodDays, ...promo } },
        refType: 'game',
        refId: gameId,
      });
    }
    await tx.insert(gamePayments).values({
      gameId,
      ownerId,
      status: 'PAID',
      amountCredits: price,
      periodStart: purchase.periodStart,
      periodEnd: purchase.periodEnd,
      promoCode: promo?.code ?? null,
      paidAt: purchase.periodStart,
      createdAt: purchase.periodStart,
    });
  }
}
