import { and, asc, count, desc, eq, ilike, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { games } from '../../db/schema/games.ts';
import { conflict, notFound } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import type { AuditService } from '../audit/service.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { UsersService } from '../users/service.ts';
import { parseSort } from '../../../contract/staff.ts';
import type { StaffGame, StaffGameQuery } from '../../../contract/games.ts';
import { actionWrite, allows, statusSet, toGame, type GamesService } from './service.ts';
import type { GameRow, GameRuntime } from './runtime.ts';

/** Names sort as people read them: "arena" between "Alpha" and "Castle", whatever the database's collation. */
const sortColumns = { createdAt: games.createdAt, periodEnd: games.periodEnd, name: sql`lower(${games.name})` };

/** `q` as a LIKE pattern matching it anywhere, its own % and _ taken literally. */
const containing = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The back office's games: everyone's, with their owners and what they bought by name; staff stop
 * a game (as its owner would), audited in its own transaction and its owner told why. Free days
 * are the renewals' (money/renewals), which own a game's period.
 */
export class StaffGamesService {
  private readonly db: Db;
  private readonly games: GamesService;
  private readonly catalogue: CatalogueService;
  private readonly users: UsersService;
  private readonly notifications: NotificationsService;
  private readonly audit: AuditService;
  private readonly runtime: GameRuntime;

  constructor(db: Db, deps: { games: GamesService; catalogue: CatalogueService; users: UsersService; notifications: NotificationsService; audit: AuditService; runtime: GameRuntime }) {
    this.db = db;
    this.games = deps.games;
    this.catalogue = deps.catalogue;
    this.users = deps.users;
    this.notifications = deps.notifications;
    this.audit = deps.audit;
    this.runtime = deps.runtime;
  }

  /** Rows as the back office shows them; names are read after any transaction (on PGlite a read beside one waits for it). */
  private async views(rows: GameRow[]): Promise<StaffGame[]> {
    const [withRenewals, owners, labels] = await Promise.all([
      this.games.withRenewals(rows),
      this.users.names(rows.map((r) => r.ownerId)),
      this.catalogue.labels(
        rows.map((r) => r.definitionId),
        rows.map((r) => r.packageId),
      ),
    ]);
    return withRenewals.map((game, i) => {
      const row = rows[i]!;
      return {
        ...game,
        ownerId: row.ownerId,
        ownerName: owners.get(row.ownerId) ?? '',
        definitionName: labels.definitions.get(row.definitionId) ?? { fr: '', en: '' },
        packageName: labels.packages.get(row.packageId) ?? { fr: '', en: '' },
      };
    });
  }

  /** Everyone's games, newest first unless sorted otherwise; by owner, status and part of the name. */
  async list(query: StaffGameQuery, window: Window) {
    const only = statusSet(query.status);
    const ignored = statusSet(query.ignoredStatus);
    const conditions: SQL[] = [];
    if (query.ownerId) conditions.push(eq(games.ownerId, query.ownerId));
    if (only) conditions.push(inArray(games.status, only));
    if (ignored) conditions.push(notInArray(games.status, ignored));
    if (query.q) conditions.push(ilike(games.name, containing(query.q)));
    const where = conditions.length ? and(...conditions) : undefined;
    const sort = parseSort<keyof typeof sortColumns>(query.sort, { field: 'createdAt', desc: true });
    const order = sort.desc ? desc : asc;
    const [rows, [total]] = await Promise.all([
      this.db.select().from(games).where(where).orderBy(order(sortColumns[sort.field]), order(games.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(games).where(where),
    ]);
    return pageOf(await this.views(rows), total?.n ?? 0, window);
  }

  async get(id: string): Promise<StaffGame> {
    const [row] = await this.db.select().from(games).where(eq(games.id, id));
    if (!row) throw notFound('game');
    return (await this.views([row]))[0]!;
  }

  /** Stops the game as its owner's stop does (world saved by the reconciler); 409 with its status when it cannot stop. */
  async stop(actorId: string, id: string, reason: string): Promise<StaffGame> {
    const now = this.runtime.clock();
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(games).where(eq(games.id, id)).for('update');
      if (!before) throw notFound('game');
      if (!allows('stop', before.status)) throw conflict('games.cannotStop', { status: before.status });
      const [after] = await tx.update(games).set(actionWrite('stop', now)).where(eq(games.id, id)).returning();
      await this.audit.record(tx, { actorId, action: 'game.stop', entity: 'game', entityId: id, reason, before: toGame(before), after: toGame(after!) });
      await this.notifications.changed(before.ownerId, { resource: 'games', ids: [id], type: 'updated' }, tx);
      await this.notifications.notify(
        before.ownerId,
        // The staff's reason is their own words, passed on as they wrote it.
        { key: 'game.stoppedByStaff', params: { name: before.name, reason }, link: `/dashboard/game/${id}` },
        tx,
      );
    });
    this.games.actionAsked(id);
    return this.get(id);
  }
}
