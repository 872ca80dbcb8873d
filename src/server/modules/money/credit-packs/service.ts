import { asc, count, eq } from 'drizzle-orm';
import type { Database, Db, Executor } from '../../../db/client.ts';
import { AnswerCache, type CachedAnswer } from '../../../lib/answer-cache.ts';
import { creditPacks } from '../../../db/schema/credit-packs.ts';
import { notFound } from '../../../lib/problems.ts';
import { pageOf, type Window } from '../../../lib/paging.ts';
import type { AuditService } from '../../audit/service.ts';
import type { CreditPack, PricingRequest } from '../../../../contract/credit-packs.ts';

type Row = typeof creditPacks.$inferSelect;

function toPack(row: Row): CreditPack {
  return {
    id: row.id,
    credits: row.credits,
    bonusCredits: row.bonusCredits,
    priceCents: row.priceCents,
    currency: row.currency,
    label: row.label,
    archived: row.archived,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Credit packs on sale. A pack that was paid for is archived instead of deleted: its payments and
 * invoices still name it. `hasPayments` is the payments module's to answer. Every write is staff's,
 * audited in its own transaction.
 */
/** NOTIFYed by migration 0021's trigger when credit_packs change. */
const PRICING_CHANNEL = 'pricing_changed';

export class CreditPacksService {
  private readonly db: Db;
  private readonly audit: AuditService;
  /** Whether any payment names the pack: the payments module's to answer. */
  private readonly hasPayments: (packId: string) => Promise<boolean>;

  /** The packs on sale as visitors read them, ready to send; dropped when a pack changes. */
  readonly answers: AnswerCache;

  constructor(db: Db, audit: AuditService, database: Database, hasPayments: (packId: string) => Promise<boolean>) {
    this.db = db;
    this.audit = audit;
    this.hasPayments = hasPayments;
    this.answers = new AnswerCache(database, PRICING_CHANNEL);
  }

  /** A page of the packs on sale, as a visitor reads it: from memory while no pack changed. */
  onSalePage(window: Window): Promise<CachedAnswer> {
    return this.answers.get(`list:${window.offset}:${window.limit}`, () => this.list(window, false));
  }

  /** Packs on sale, cheapest first; staff and support also see archived ones. */
  async list(window: Window, withArchived: boolean) {
    const where = withArchived ? undefined : eq(creditPacks.archived, false);
    const [rows, [total]] = await Promise.all([
      this.db.select().from(creditPacks).where(where).orderBy(asc(creditPacks.archived), asc(creditPacks.priceCents), asc(creditPacks.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(creditPacks).where(where),
    ]);
    return pageOf(rows.map(toPack), total?.n ?? 0, window);
  }

  /** A pack, archived or not, as staff and support read it: 404 when unknown. */
  async one(id: string, executor: Executor = this.db): Promise<CreditPack> {
    const [row] = await executor.select().from(creditPacks).where(eq(creditPacks.id, id));
    if (!row) throw notFound('creditPack');
    return toPack(row);
  }

  /** A pack that is on sale (for a purchase): 404 when unknown or archived. */
  async onSale(id: string, executor: Executor = this.db): Promise<CreditPack> {
    const pack = await this.one(id, executor);
    if (pack.archived) throw notFound('creditPack');
    return pack;
  }

  async create(actorId: string | null, input: PricingRequest): Promise<CreditPack> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(creditPacks)
        .values({ credits: input.credits, bonusCredits: input.bonusCredits ?? 0, priceCents: input.priceCents, currency: input.currency, label: input.label ?? null })
        .returning();
      const pack = toPack(row!);
      await this.audit.record(tx, { actorId, action: 'pricing.create', entity: 'pricing', entityId: pack.id, after: pack });
      return pack;
    });
  }

  /** Changes a pack; payments made keep what they paid and got. */
  async update(actorId: string | null, id: string, input: PricingRequest): Promise<CreditPack> {
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, id);
      const [row] = await tx
        .update(creditPacks)
        .set({ credits: input.credits, bonusCredits: input.bonusCredits ?? 0, priceCents: input.priceCents, currency: input.currency, label: input.label ?? null, updatedAt: new Date() })
        .where(eq(creditPacks.id, id))
        .returning();
      const pack = toPack(row!);
      await this.audit.record(tx, { actorId, action: 'pricing.update', entity: 'pricing', entityId: id, before, after: pack });
      return pack;
    });
  }

  /** Deletes a pack nobody paid for; archives one with payments. Answers which it did. */
  async remove(actorId: string | null, id: string): Promise<'deleted' | 'archived'> {
    // Asked before the transaction: the payments module reads with its own connection.
    const paid = await this.hasPayments(id);
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, id);
      if (paid) {
        const [row] = await tx.update(creditPacks).set({ archived: true, updatedAt: new Date() }).where(eq(creditPacks.id, id)).returning();
        await this.audit.record(tx, { actorId, action: 'pricing.archive', entity: 'pricing', entityId: id, before, after: toPack(row!) });
        return 'archived';
      }
      await tx.delete(creditPacks).where(eq(creditPacks.id, id));
      await this.audit.record(tx, { actorId, action: 'pricing.delete', entity: 'pricing', entityId: id, before });
      return 'deleted';
    });
  }

  /** The pack under its row lock, for a write; 404 when unknown. */
  private async locked(tx: Executor, id: string): Promise<CreditPack> {
    const [row] = await tx.select().from(creditPacks).where(eq(creditPacks.id, id)).for('update');
    if (!row) throw notFound('creditPack');
    return toPack(row);
  }
}
