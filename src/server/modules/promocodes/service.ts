import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { promoCodes, promoCodeUses } from '../../db/schema/promocodes.ts';
import { conflict, HttpProblem, notFound } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import type { AuditService } from '../audit/service.ts';
import type { UsersService } from '../users/service.ts';
import type { PromoCode, PromoCodeCheck, PromoCodeCreateRequest, PromoCodeUpdateRequest } from '../../../contract/credits.ts';
import type { PromoCodeUse } from '../../../contract/staff.ts';

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

const unusable = (detail: string) => new HttpProblem(422, detail, { errors: [{ field: 'promoCode', message: detail }] });

/**
 * Promo codes: staff make and archive them; players check one, then use it on a pack or a game.
 * A use is counted by `redeem` in the caller's transaction, under the code row's lock: the limit
 * holds however many use it at once, and a failed payment gives its use back with `release`.
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
      if (isUniqueViolation(err)) throw conflict(`The promo code ${code} exists already`);
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
      if (!row) throw notFound('Promo code');
      if (terms.maxUses !== null && terms.maxUses < row.uses) throw conflict(`The promo code ${row.code} has been used ${row.uses} times already: maxUses cannot be lower`);
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

  /** Archives a code: it stays on the payments that used it, and is no longer accepted. */
  async archive(actorId: string | null, code: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(promoCodes).where(eq(promoCodes.code, code.toUpperCase())).for('update');
      if (!row) throw notFound('Promo code');
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
    if (removed.length)
      await tx
        .update(promoCodes)
        .set({ uses: sql`greatest(${promoCodes.uses} - 1, 0)` })
        .where(eq(promoCodes.code, input.code));
  }

  /** Who used a code, for the back office. */
  async uses(code: string) {
    return this.db.select().from(promoCodeUses).where(eq(promoCodeUses.code, code.toUpperCase())).orderBy(asc(promoCodeUses.usedAt));
  }

  /** A page of a code's uses, newest first, with who used it and on which payment; 404 for an unknown code. */
  async listUses(raw: string, window: Window) {
    const code = raw.toUpperCase();
    const [known] = await this.db.select({ code: promoCodes.code }).from(promoCodes).where(eq(promoCodes.code, code));
    if (!known) throw notFound('Promo code');
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

/** A code's terms as stored, after the checks the schema cannot make. */
function checkedTerms(input: PromoCodeUpdateRequest) {
  if (input.kind === 'PERCENT_OFF' && input.value > 100) throw unusableField('value', 'must be at most 100 for a percentage off');
  const validFrom = input.validFrom ? new Date(input.validFrom) : null;
  const validUntil = input.validUntil ? new Date(input.validUntil) : null;
  if (validFrom && validUntil && validUntil <= validFrom) throw unusableField('validUntil', 'must be after validFrom');
  return { kind: input.kind, value: input.value, maxUses: input.maxUses ?? null, validFrom, validUntil };
}

function unusableField(field: string, message: string) {
  return new HttpProblem(400, `Invalid ${field}: it ${message}`, { errors: [{ field, message }] });
}
