import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { promoCodes, promoCodeUses } from '../../db/schema/promocodes.ts';
import { conflict, HttpProblem, notFound } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { PromoCode, PromoCodeCheck, PromoCodeCreateRequest } from '../../../contract/credits.ts';

type Row = typeof promoCodes.$inferSelect;
/** What a code is used on: a credit pack's price (and credits), or a game's first charge. */
export type PromoTarget = 'PACK' | 'GAME';

export function toPromoCode(row: Row): PromoCode {
  return {
    code: row.code,
    kind: row.kind,
    value: row.value,
    maxUses: row.maxUses,
    uses: row.uses,
    validFrom: row.validFrom?.toISOString() ?? null,
    validUntil: row.validUntil?.toISOString() ?? null,
    archived: row.archivedAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A code's effect on an amount: the price after a percentage off, and bonus credits. */
export function discounted(code: Pick<Row, 'kind' | 'value'>, amount: number): { amount: number; bonusCredits: number } {
  if (code.kind === 'PERCENT_OFF') return { amount: Math.round((amount * (100 - Math.min(code.value, 100))) / 100), bonusCredits: 0 };
  return { amount, bonusCredits: code.value };
}

const unusable = (detail: string) => new HttpProblem(422, detail, { errors: [{ field: 'promoCode', message: detail }] });

/**
 * Promo codes: staff make and archive them; players check one, then use it on a pack or a game.
 * A use is counted by `redeem` in the caller's transaction, under the code row's lock: the limit
 * holds however many use it at once, and a failed payment gives its use back with `release`.
 */
export class PromoCodesService {
  private readonly db: Db;
  private readonly clock: () => Date;

  constructor(db: Db, clock: () => Date = () => new Date()) {
    this.db = db;
    this.clock = clock;
  }

  async create(input: PromoCodeCreateRequest): Promise<PromoCode> {
    const code = input.code.toUpperCase();
    if (input.kind === 'PERCENT_OFF' && input.value > 100) throw unusableField('value', 'must be at most 100 for a percentage off');
    const validFrom = input.validFrom ? new Date(input.validFrom) : null;
    const validUntil = input.validUntil ? new Date(input.validUntil) : null;
    if (validFrom && validUntil && validUntil <= validFrom) throw unusableField('validUntil', 'must be after validFrom');
    try {
      const [row] = await this.db.insert(promoCodes).values({ code, kind: input.kind, value: input.value, maxUses: input.maxUses ?? null, validFrom, validUntil }).returning();
      return toPromoCode(row!);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`The promo code ${code} exists already`);
      throw err;
    }
  }

  async list(window: Window) {
    const [rows, [total]] = await Promise.all([
      this.db.select().from(promoCodes).orderBy(asc(promoCodes.code)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(promoCodes),
    ]);
    return pageOf(rows.map(toPromoCode), total?.n ?? 0, window);
  }

  /** Archives a code: it stays on the payments that used it, and is no longer accepted. */
  async archive(code: string): Promise<void> {
    const [row] = await this.db
      .update(promoCodes)
      .set({ archivedAt: this.clock() })
      .where(eq(promoCodes.code, code.toUpperCase()))
      .returning({ code: promoCodes.code });
    if (!row) throw notFound('Promo code');
  }

  /** What a code gives this player now, or why they cannot use it (404 unknown, 422 otherwise). */
  async check(code: string, userId: string, target?: PromoTarget): Promise<PromoCodeCheck> {
    const row = await this.usable(this.db, code, userId, target);
    return { code: row.code, kind: row.kind, value: row.value, validUntil: row.validUntil?.toISOString() ?? null };
  }

  /**
   * Counts the player's use of a code on `ref`, in the caller's transaction; answers the code.
   * Throws as `check` does when it cannot be used, so the caller's transaction rolls back.
   */
  async redeem(tx: Executor, input: { code: string; userId: string; target: PromoTarget; refType: string; refId: string }): Promise<Row> {
    const row = await this.usable(tx, input.code, input.userId, input.target, true);
    const [counted] = await tx
      .update(promoCodes)
      .set({ uses: sql`${promoCodes.uses} + 1` })
      .where(and(eq(promoCodes.code, row.code), sql`${promoCodes.maxUses} is null or ${promoCodes.uses} < ${promoCodes.maxUses}`))
      .returning();
    if (!counted) throw unusable(`The promo code ${row.code} has been used as many times as it may be`);
    try {
      await tx.insert(promoCodeUses).values({ code: row.code, userId: input.userId, refType: input.refType, refId: input.refId });
    } catch (err) {
      if (isUniqueViolation(err)) throw unusable(`You have already used the promo code ${row.code}`);
      throw err;
    }
    return counted;
  }

  /** Gives back a use counted for `ref` (its payment failed); nothing when there was none. */
  async release(tx: Executor, input: { code: string; userId: string; refType: string; refId: string }): Promise<void> {
    const removed = await tx
      .delete(promoCodeUses)
      .where(and(eq(promoCodeUses.code, input.code), eq(promoCodeUses.userId, input.userId), eq(promoCodeUses.refType, input.refType), eq(promoCodeUses.refId, input.refId)))
      .returning({ code: promoCodeUses.code });
    if (removed.length) await tx.update(promoCodes).set({ uses: sql`greatest(${promoCodes.uses} - 1, 0)` }).where(eq(promoCodes.code, input.code));
  }

  /** Who used a code, for the back office. */
  async uses(code: string) {
    return this.db.select().from(promoCodeUses).where(eq(promoCodeUses.code, code.toUpperCase())).orderBy(asc(promoCodeUses.usedAt));
  }

  private async usable(executor: Executor, raw: string, userId: string, target: PromoTarget | undefined, lock = false): Promise<Row> {
    const code = raw.toUpperCase();
    const query = executor.select().from(promoCodes).where(eq(promoCodes.code, code));
    const [row] = lock ? await query.for('update') : await query;
    if (!row || row.archivedAt) throw new HttpProblem(404, `The promo code ${code} does not exist`, { errors: [{ field: 'promoCode', message: 'does not exist' }] });
    const now = this.clock();
    if (row.validFrom && row.validFrom > now) throw unusable(`The promo code ${code} is valid from ${row.validFrom.toISOString()}`);
    if (row.validUntil && row.validUntil <= now) throw unusable(`The promo code ${code} expired on ${row.validUntil.toISOString()}`);
    if (row.maxUses !== null && row.uses >= row.maxUses) throw unusable(`The promo code ${code} has been used as many times as it may be`);
    if (target === 'GAME' && row.kind !== 'PERCENT_OFF') throw unusable(`The promo code ${code} gives bonus credits on a credit pack, not on a game`);
    const [used] = await executor
      .select({ n: count() })
      .from(promoCodeUses)
      .where(and(eq(promoCodeUses.code, code), eq(promoCodeUses.userId, userId)));
    if ((used?.n ?? 0) > 0) throw unusable(`You have already used the promo code ${code}`);
    return row;
  }
}

function unusableField(field: string, message: string) {
  return new HttpProblem(400, `Invalid ${field}: it ${message}`, { errors: [{ field, message }] });
}
