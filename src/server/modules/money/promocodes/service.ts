import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../../db/client.ts';
import { promoCodes, promoCodeUses } from '../../../db/schema/promocodes.ts';
import type { MessageParams } from '../../../../contract/messages.ts';
import { conflict, HttpProblem, invalidField, notFound, type ErrorKey } from '../../../lib/problems.ts';
import { pageOf, type Window } from '../../../lib/paging.ts';
import { isUniqueViolation } from '../../../lib/db-errors.ts';
import type { AuditService } from '../../audit/service.ts';
import type { UsersService } from '../../users/service.ts';
import type { PromoCode, PromoCodeCheck, PromoCodeCreateRequest, PromoCodeUpdateRequest } from '../../../../contract/promocodes.ts';
import type { PromoCodeUse } from '../../../../contract/staff.ts';

type Row = typeof promoCodes.$inferSelect;
/** What a code is used on: a credit pack's price (and credits), or a game's first charge. */
export type PromoTarget = 'PACK' | 'GAME';

function toPromoCode(row: Row): PromoCode {
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

const unusable = (key: ErrorKey, params: MessageParams) => new HttpProblem(422, key, params, { errors: [{ field: 'promoCode', key, params }] });

/**
 * Promo codes: staff make and archive them; players check one, then use it on a pack or a game.
 * A use is counted by `redeem` in the caller's transaction, under the code row's lock: the limit
 * holds however many use it at once. A card payment holds its use while PENDING (so two payments
 * cannot both count on a code's last use), a declined or abandoned one gives it back at once with
 * `release`, and one paid after all takes it again with `retake`.
 */
export class PromoCodesService {
  private readonly db: Db;
  private readonly audit: AuditService;
  private readonly users: UsersService;
  private readonly clock: () => Date;

  constructor(db: Db, deps: { audit: AuditService; users: UsersService; clock?: () => Date }) {
    this.db = db;
    this.audit = deps.audit;
    this.users = deps.users;
    this.clock = deps.clock ?? (() => new Date());
  }

  async create(actorId: string | null, input: PromoCodeCreateRequest): Promise<PromoCode> {
    const code = input.code.toUpperCase();
    const terms = checkedTerms(input);
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(promoCodes)
          .values({ code, ...terms })
          .returning();
        const created = toPromoCode(row!);
        await this.audit.record(tx, { actorId, action: 'promoCode.create', entity: 'promoCode', entityId: code, after: created });
        return created;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('promoCode.exists', { code });
      throw err;
    }
  }

  /**
   * Changes a code's terms; what used it keeps what it got. Uses so far stay counted, so a limit
   * below them is refused (archive the code to stop it).
   */
  async update(actorId: string | null, raw: string, input: PromoCodeUpdateRequest): Promise<PromoCode> {
    const terms = checkedTerms(input);
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.code, raw.toUpperCase())).for('update');
      if (!row) throw notFound('promoCode');
      if (terms.maxUses !== null && terms.maxUses < row.uses) throw conflict('promoCode.maxUsesTooLow', { code: row.code, uses: row.uses });
      const [updated] = await tx.update(promoCodes).set(terms).where(eq(promoCodes.code, row.code)).returning();
      const after = toPromoCode(updated!);
      await this.audit.record(tx, { actorId, action: 'promoCode.update', entity: 'promoCode', entityId: row.code, before: toPromoCode(row), after });
      return after;
    });
  }

  async list(window: Window) {
    const [rows, [total]] = await Promise.all([
      this.db.select().from(promoCodes).orderBy(asc(promoCodes.code)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(promoCodes),
    ]);
    return pageOf(rows.map(toPromoCode), total?.n ?? 0, window);
  }

  /** A code with its uses so far, as staff and support read it (any case): 404 when unknown. */
  async one(raw: string): Promise<PromoCode> {
    const [row] = await this.db.select().from(promoCodes).where(eq(promoCodes.code, raw.toUpperCase()));
    if (!row) throw notFound('promoCode');
    return toPromoCode(row);
  }

  /** Archives a code: it stays on the payments that used it, and is no longer accepted. */
  async archive(actorId: string | null, code: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.code, code.toUpperCase())).for('update');
      if (!row) throw notFound('promoCode');
      const [archived] = await tx.update(promoCodes).set({ archivedAt: this.clock() }).where(eq(promoCodes.code, row.code)).returning();
      await this.audit.record(tx, { actorId, action: 'promoCode.archive', entity: 'promoCode', entityId: row.code, before: toPromoCode(row), after: toPromoCode(archived!) });
    });
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
    if (!counted) throw unusable('promoCode.usedUp', { code: row.code });
    try {
      await tx.insert(promoCodeUses).values({ code: row.code, userId: input.userId, refType: input.refType, refId: input.refId });
    } catch (err) {
      if (isUniqueViolation(err)) throw unusable('promoCode.alreadyUsed', { code: row.code });
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
    if (removed.length)
      await tx
        .update(promoCodes)
        .set({ uses: sql`greatest(${promoCodes.uses} - 1, 0)` })
        .where(eq(promoCodes.code, input.code));
  }

  /**
   * Takes a code's use again for `ref`, whose earlier use was given back (its card was declined)
   * and which is being paid after all; answers whether the use is held now. `strict` (the card is
   * not charged yet) refuses as `redeem` does when the code has no use left or the player used it
   * elsewhere meanwhile. Otherwise (the provider says the money is in: too late to refuse) the use is
   * counted even past the limit and the answer is `over`, for staff to see.
   */
  async retake(tx: Executor, input: { code: string; userId: string; refType: string; refId: string }, strict: boolean): Promise<'held' | 'taken' | 'over'> {
    const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.code, input.code)).for('update');
    if (!row) return 'over';
    const [use] = await tx
      .select()
      .from(promoCodeUses)
      .where(and(eq(promoCodeUses.code, row.code), eq(promoCodeUses.userId, input.userId)));
    if (use && use.refType === input.refType && use.refId === input.refId) return 'held';
    if (use) {
      if (strict) throw unusable('promoCode.alreadyUsed', { code: row.code });
      return 'over';
    }
    const full = row.maxUses !== null && row.uses >= row.maxUses;
    if (full && strict) throw unusable('promoCode.usedUp', { code: row.code });
    await tx.insert(promoCodeUses).values({ code: row.code, userId: input.userId, refType: input.refType, refId: input.refId });
    await tx
      .update(promoCodes)
      .set({ uses: sql`${promoCodes.uses} + 1` })
      .where(eq(promoCodes.code, row.code));
    return full ? 'over' : 'taken';
  }

  /** Who used a code, for the back office. */
  async uses(code: string) {
    return this.db.select().from(promoCodeUses).where(eq(promoCodeUses.code, code.toUpperCase())).orderBy(asc(promoCodeUses.usedAt));
  }

  /** A page of a code's uses, newest first, with who used it and on which payment; 404 for an unknown code. */
  async listUses(raw: string, window: Window) {
    const code = raw.toUpperCase();
    const [known] = await this.db.select({ code: promoCodes.code }).from(promoCodes).where(eq(promoCodes.code, code));
    if (!known) throw notFound('promoCode');
    const where = eq(promoCodeUses.code, code);
    const [rows, [total]] = await Promise.all([
      this.db.select().from(promoCodeUses).where(where).orderBy(desc(promoCodeUses.usedAt), asc(promoCodeUses.userId)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(promoCodeUses).where(where),
    ]);
    const names = await this.users.names(rows.map((r) => r.userId));
    const data: PromoCodeUse[] = rows.map((r) => ({
      userId: r.userId,
      userName: names.get(r.userId) ?? '',
      usedAt: r.usedAt.toISOString(),
      paymentId: r.refType === 'payment' ? r.refId : null,
      gameId: r.refType === 'game' ? r.refId : null,
    }));
    return pageOf(data, total?.n ?? 0, window);
  }

  private async usable(executor: Executor, raw: string, userId: string, target: PromoTarget | undefined, lock = false): Promise<Row> {
    const code = raw.toUpperCase();
    const query = executor.select().from(promoCodes).where(eq(promoCodes.code, code));
    const [row] = lock ? await query.for('update') : await query;
    if (!row || row.archivedAt) throw new HttpProblem(404, 'promoCode.doesNotExist', { code }, { errors: [{ field: 'promoCode', key: 'field.doesNotExist' }] });
    const now = this.clock();
    if (row.validFrom && row.validFrom > now) throw unusable('promoCode.notYetValid', { code, from: row.validFrom.toISOString() });
    if (row.validUntil && row.validUntil <= now) throw unusable('promoCode.expired', { code, until: row.validUntil.toISOString() });
    if (row.maxUses !== null && row.uses >= row.maxUses) throw unusable('promoCode.usedUp', { code });
    if (target === 'GAME' && row.kind !== 'PERCENT_OFF') throw unusable('promoCode.packOnly', { code });
    const [used] = await executor
      .select({ n: count() })
      .from(promoCodeUses)
      .where(and(eq(promoCodeUses.code, code), eq(promoCodeUses.userId, userId)));
    if ((used?.n ?? 0) > 0) throw unusable('promoCode.alreadyUsed', { code });
    return row;
  }
}

/** A code's terms as stored, after the checks the schema cannot make. */
function checkedTerms(input: PromoCodeUpdateRequest) {
  if (input.kind === 'PERCENT_OFF' && input.value > 100) throw invalidField('value', 'field.percentAtMost100');
  const validFrom = input.validFrom ? new Date(input.validFrom) : null;
  const validUntil = input.validUntil ? new Date(input.validUntil) : null;
  if (validFrom && validUntil && validUntil <= validFrom) throw invalidField('validUntil', 'field.afterValidFrom');
  return { kind: input.kind, value: input.value, maxUses: input.maxUses ?? null, validFrom, validUntil };
}
