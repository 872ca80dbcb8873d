import { and, asc, count, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { gameReviews } from '../../db/schema/reviews.ts';
import { conflict, forbidden, notFound } from '../../lib/problems.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import type { AuditService } from '../audit/service.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { GamesService } from '../games/service.ts';
import type { UsersService } from '../users/service.ts';
import { parseSort } from '../../../contract/staff.ts';
import type { GameReview, GameReviewCreate, ReviewPage, StaffReview, StaffReviewQuery } from '../../../contract/reviews.ts';

type Row = typeof gameReviews.$inferSelect;

function toReview(row: Row, authorName: string, former = false): GameReview {
  return {
    id: row.id,
    definitionId: row.definitionId,
    rating: row.rating,
    comment: row.comment,
    author: former ? { id: row.userId, name: '', former: true } : { id: row.userId, name: authorName },
    createdAt: row.createdAt.toISOString(),
  };
}

/** What a staff moderation does to a review: the column change, the rating change, the audit verb. */
const moderations = {
  hide: { hidden: true, ratingChange: -1, verb: 'hidden' },
  restore: { hidden: false, ratingChange: 1, verb: 'restored' },
} as const;
const sortColumns = { createdAt: gameReviews.createdAt, rating: gameReviews.rating };

/**
 * Reviews of game definitions: one per player per definition, only from players who bought a game
 * of it. Staff may hide one (with a reason): it leaves the public list and the definition's
 * average; its author still sees it as theirs.
 */
export class ReviewsService {
  private readonly db: Db;
  private readonly catalogue: CatalogueService;
  private readonly games: GamesService;
  private readonly users: UsersService;
  private readonly audit: AuditService;

  constructor(db: Db, deps: { catalogue: CatalogueService; games: GamesService; users: UsersService; audit: AuditService }) {
    this.db = db;
    this.catalogue = deps.catalogue;
    this.games = deps.games;
    this.users = deps.users;
    this.audit = deps.audit;
  }

  async create(user: { id: string; name: string }, input: GameReviewCreate): Promise<GameReview> {
    if (!(await this.catalogue.exists(input.definitionId))) throw notFound('gameDefinition');
    if (!(await this.games.hasCreatedGameOf(user.id, input.definitionId))) {
      throw forbidden('reviews.notPlayed');
    }
    try {
      // The review and the definition's rating change together.
      const row = await this.db.transaction(async (tx) => {
        const [review] = await tx
          .insert(gameReviews)
          .values({ definitionId: input.definitionId, userId: user.id, rating: input.rating, comment: input.comment?.trim() || null })
          .returning();
        await this.catalogue.recordRating(tx, input.definitionId, input.rating);
        return review!;
      });
      return toReview(row, user.name);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('reviews.alreadyReviewed');
      throw err;
    }
  }

  /**
   * A definition's reviews that are not hidden, newest first, with their authors' names; and for
   * the caller, their own review wherever it is in the list (hidden or not), and whether they may
   * write one. A visitor (no caller) reads the same list, with no review of theirs and no right to write.
   */
  async list(definitionId: string, window: Window, caller: { id: string; name: string } | null): Promise<ReviewPage> {
    if (!(await this.catalogue.exists(definitionId))) throw notFound('gameDefinition');
    const ofDefinition = eq(gameReviews.definitionId, definitionId);
    const where = and(ofDefinition, isNull(gameReviews.hiddenAt));
    const [rows, [total], [own], bought] = await Promise.all([
      this.db.select().from(gameReviews).where(where).orderBy(desc(gameReviews.createdAt), desc(gameReviews.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(gameReviews).where(where),
      caller
        ? this.db
            .select()
            .from(gameReviews)
            .where(and(ofDefinition, eq(gameReviews.userId, caller.id)))
        : Promise.resolve([]),
      caller ? this.games.hasCreatedGameOf(caller.id, definitionId) : Promise.resolve(false),
    ]);
    const authors = rows.map((r) => r.userId);
    const [names, former] = await Promise.all([this.users.names(authors), this.users.deletedIds(authors)]);
    const page = pageOf(
      rows.map((r) => toReview(r, names.get(r.userId) ?? '', former.has(r.userId))),
      total?.n ?? 0,
      window,
    );
    return { ...page, mine: own && caller ? { ...toReview(own, caller.name), hidden: own.hiddenAt !== null } : null, canReview: !own && bought };
  }

  /** Every review for the back office, hidden ones too, newest first unless sorted otherwise. */
  async listForStaff(query: StaffReviewQuery, window: Window) {
    const conditions: SQL[] = [];
    if (query.definitionId) conditions.push(eq(gameReviews.definitionId, query.definitionId));
    if (query.hidden !== undefined) conditions.push(query.hidden ? isNotNull(gameReviews.hiddenAt) : isNull(gameReviews.hiddenAt));
    const where = conditions.length ? and(...conditions) : undefined;
    const sort = parseSort<keyof typeof sortColumns>(query.sort, { field: 'createdAt', desc: true });
    const order = sort.desc ? desc : asc;
    const [rows, [total]] = await Promise.all([
      this.db.select().from(gameReviews).where(where).orderBy(order(sortColumns[sort.field]), order(gameReviews.createdAt), order(gameReviews.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(gameReviews).where(where),
    ]);
    return pageOf(await this.staffViews(rows), total?.n ?? 0, window);
  }

  private async staffViews(rows: Row[]): Promise<StaffReview[]> {
    const [names, labels] = await Promise.all([this.users.names(rows.map((r) => r.userId)), this.catalogue.labels(rows.map((r) => r.definitionId))]);
    return rows.map((r) => ({
      id: r.id,
      definitionId: r.definitionId,
      definitionName: labels.definitions.get(r.definitionId) ?? { fr: '', en: '' },
      userId: r.userId,
      userName: names.get(r.userId) ?? '',
      rating: r.rating,
      comment: r.comment,
      hidden: r.hiddenAt !== null,
      hiddenReason: r.hiddenReason,
      createdAt: r.createdAt.toISOString(),
    }));
  }

  /**
   * Hides a review from everyone but its author, or restores it (409 when it already is so), under
   * its row lock: the definition's rating and the audit row change in the same transaction.
   */
  async moderate(actorId: string, id: string, action: keyof typeof moderations, reason: string): Promise<StaffReview> {
    const rule = moderations[action];
    const row = await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(gameReviews).where(eq(gameReviews.id, id)).for('update');
      if (!before) throw notFound('review');
      if ((before.hiddenAt !== null) === rule.hidden) throw conflict(rule.hidden ? 'reviews.alreadyHidden' : 'reviews.alreadyRestored');
      const [after] = await tx
        .update(gameReviews)
        .set(rule.hidden ? { hiddenAt: new Date(), hiddenReason: reason } : { hiddenAt: null, hiddenReason: null })
        .where(eq(gameReviews.id, id))
        .returning();
      await this.catalogue.recordRating(tx, before.definitionId, before.rating, rule.ratingChange);
      const state = (r: Row) => ({ hidden: r.hiddenAt !== null, hiddenReason: r.hiddenReason, rating: r.rating, comment: r.comment });
      await this.audit.record(tx, { actorId, action: `review.${action}`, entity: 'review', entityId: id, reason, before: state(before), after: state(after!) });
      return after!;
    });
    return (await this.staffViews([row]))[0]!;
  }

  /** For a person's data export: their reviews, hidden ones too, with why staff hid them. */
  async ofUser(userId: string) {
    const rows = await this.db.select().from(gameReviews).where(eq(gameReviews.userId, userId)).orderBy(desc(gameReviews.createdAt));
    return rows.map((row) => ({
      id: row.id,
      definitionId: row.definitionId,
      rating: row.rating,
      comment: row.comment,
      createdAt: row.createdAt.toISOString(),
      hiddenAt: row.hiddenAt?.toISOString() ?? null,
      hiddenReason: row.hiddenReason,
    }));
  }
}
