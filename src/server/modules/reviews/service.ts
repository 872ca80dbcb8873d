import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { gameReviews } from '../../db/schema/reviews.ts';
import { conflict, forbidden, notFound } from '../../lib/problems.ts';
import { pgErrorCode, UNIQUE_VIOLATION } from '../../lib/db-errors.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { GamesService } from '../games/service.ts';
import type { UsersService } from '../users/service.ts';
import type { GameReview, GameReviewCreate, ReviewPage } from '../../../contract/games.ts';

type Row = typeof gameReviews.$inferSelect;

function toReview(row: Row, authorName: string): GameReview {
  return {
    id: row.id,
    definitionId: row.definitionId,
    rating: row.rating,
    comment: row.comment,
    author: { id: row.userId, name: authorName },
    createdAt: row.createdAt.toISOString(),
  };
}

/** Reviews of game definitions: one per player per definition, only from players who bought a game of it. */
export class ReviewsService {
  private readonly db: Db;
  private readonly catalogue: CatalogueService;
  private readonly games: GamesService;
  private readonly users: UsersService;

  constructor(db: Db, deps: { catalogue: CatalogueService; games: GamesService; users: UsersService }) {
    this.db = db;
    this.catalogue = deps.catalogue;
    this.games = deps.games;
    this.users = deps.users;
  }

  async create(user: { id: string; name: string }, input: GameReviewCreate): Promise<GameReview> {
    if (!(await this.catalogue.exists(input.definitionId))) throw notFound('Game definition');
    if (!(await this.games.hasCreatedGameOf(user.id, input.definitionId))) {
      throw forbidden('Only players who created a game of this definition may review it');
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
      if (pgErrorCode(err) === UNIQUE_VIOLATION) throw conflict('You have already reviewed this game');
      throw err;
    }
  }

  /**
   * A definition's reviews, newest first, with their authors' names; and for the caller, their own
   * review wherever it is in the list, and whether they may write one.
   */
  async list(definitionId: string, window: Window, caller: { id: string; name: string }): Promise<ReviewPage> {
    if (!(await this.catalogue.exists(definitionId))) throw notFound('Game definition');
    const where = eq(gameReviews.definitionId, definitionId);
    const [rows, [total], [own], bought] = await Promise.all([
      this.db.select().from(gameReviews).where(where).orderBy(desc(gameReviews.createdAt), desc(gameReviews.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(gameReviews).where(where),
      this.db.select().from(gameReviews).where(and(where, eq(gameReviews.userId, caller.id))),
      this.games.hasCreatedGameOf(caller.id, definitionId),
    ]);
    const names = await this.users.names(rows.map((r) => r.userId));
    const page = pageOf(
      rows.map((r) => toReview(r, names.get(r.userId) ?? '')),
      total?.n ?? 0,
      window,
    );
    return { ...page, mine: own ? toReview(own, caller.name) : null, canReview: !own && bought };
  }
}
