import { and, count, desc, eq, inArray, isNull, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { games } from '../../db/schema/games.ts';
import { conflict, HttpProblem, notFound } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import { FOREIGN_KEY_VIOLATION, isUniqueViolation, pgErrorCode } from '../../lib/db-errors.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { CreditsService } from '../money/credits/service.ts';
import type { FriendsService } from '../friends/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { Locale } from '../../../contract/messages.ts';
import type { FirstPeriod } from '../money/renewals/first-period.ts';
import { type Game, type GameCreate, type GameStatusView, type ResolvedSettings } from '../../../contract/games.ts';
import { type GamePayment } from '../../../contract/renewals.ts';
import { type GameStatus } from '../../../contract/values.ts';
import { specOf, type GameRow, type GameRuntime } from './runtime.ts';
import { GameLock, type GameLockWork } from './lock.ts';
import { addressNameView } from './address-names.ts';
import type { GameSpec } from '../../../runtime/driver.ts';
import type { EventBus } from '../../events.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** An owner may announce a game to their friends at most once in this time. */
const ANNOUNCE_INTERVAL_MS = 10 * 60 * 1000;
/** When to try a start again after the host had no room for it (Retry-After). */
const NO_CAPACITY_RETRY_SECONDS = 30;

/** The owner's lifecycle actions: the statuses each may start from, and the state it asks for. */
const actions = {
  start: { refusal: 'games.cannotStart', from: ['CREATED', 'STOPPED', 'CRASHED', 'SLEEPING'], desiredState: 'running', status: 'STARTING' },
  stop: { refusal: 'games.cannotStop', from: ['STARTING', 'RUNNING', 'CRASHED', 'SLEEPING'], desiredState: 'stopped', status: 'STOPPING' },
  // A restart stops first; the reconciler then starts it again because the owner still wants it running.
  restart: { refusal: 'games.cannotRestart', from: ['RUNNING', 'CRASHED'], desiredState: 'running', status: 'STOPPING' },
} as const;
export type GameAction = keyof typeof actions;

/** The refusal of a power action while a world operation holds the game's lock, by operation. */
export const lockRefusals = { BACKUP: 'games.busyBackingUp', RESTORE: 'games.busyRestoring' } as const satisfies Record<GameLockWork, string>;

/** Whether `action` applies to a game in `status`. */
export function allows(action: GameAction, status: GameStatus): boolean {
  return (actions[action].from as readonly GameStatus[]).includes(status);
}

/** What an action writes on the game's row: the reconciler then does the driver work. */
export function actionWrite(action: GameAction, now: Date) {
  const rule = actions[action];
  return {
    desiredState: rule.desiredState,
    status: rule.status,
    statusReason: null,
    statusChangedAt: now,
    launchedAt: null,
    nextAttemptAt: null,
    // The owner stepping in gives the crash-restart budget back.
    ...(action === 'stop' ? {} : { crashRestarts: [] as Date[] }),
    stateVersion: sql`${games.stateVersion} + 1`,
    updatedAt: now,
  };
}

export function toGame(row: GameRow): Game {
  return {
    id: row.id,
    name: row.name,
    ...addressNameView(row),
    definitionId: row.definitionId,
    packageId: row.packageId,
    version: row.version,
    ramMb: row.ramMb,
    maxPlayers: row.maxPlayers,
    settings: row.settings,
    desiredState: row.desiredState,
    status: row.status,
    statusReason: row.statusReason,
    statusChangedAt: row.statusChangedAt.toISOString(),
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    whitelistEnabled: row.whitelistEnabled,
    autoRenew: row.autoRenew,
    // Up on another package's memory than its own: the offer changed since it was launched.
    restartNeeded: (row.status === 'RUNNING' || row.status === 'STARTING') && row.launchedPackageId !== null && row.launchedPackageId !== row.packageId,
    periodEnd: row.periodEnd.toISOString(),
    expiredAt: row.expiredAt?.toISOString() ?? null,
    worldDeletedAt: row.worldDeletedAt?.toISOString() ?? null,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** `status` and `ignoredStatus` of a list: query values that may each be a comma list. */
export interface StatusFilter {
  status?: string[] | undefined;
  ignoredStatus?: string[] | undefined;
}

/** Statuses from query values that may each be a comma list. */
export function statusSet(values: string[] | undefined): GameStatus[] | undefined {
  return values ? (values.flatMap((v) => v.split(',')) as GameStatus[]) : undefined;
}

/**
 * Games: buying one, the owner's lifecycle actions, player lists and live control. Actions only
 * record what the owner wants; the reconciler does the driver work. Everything here answers 404 for
 * a game the caller does not own.
 */
export class GamesService {
  private readonly db: Db;
  private readonly catalogue: CatalogueService;
  private readonly credits: CreditsService;
  private readonly friends: FriendsService;
  private readonly notifications: NotificationsService;
  private readonly firstPeriod: FirstPeriod;
  private readonly runtime: GameRuntime;
  private readonly events: EventBus;
  private readonly pendingRenewals: (games: Array<{ id: string; name: string }>) => Promise<Map<string, GamePayment>>;

  constructor(
    db: Db,
    deps: {
      catalogue: CatalogueService;
      credits: CreditsService;
      friends: FriendsService;
      notifications: NotificationsService;
      firstPeriod: FirstPeriod;
      runtime: GameRuntime;
      events: EventBus;
      /** Each game's renewal waiting to be paid: the renewals' (money/renewals), which own a game's periods. */
      pendingRenewals: (games: Array<{ id: string; name: string }>) => Promise<Map<string, GamePayment>>;
    },
  ) {
    this.db = db;
    this.catalogue = deps.catalogue;
    this.credits = deps.credits;
    this.friends = deps.friends;
    this.notifications = deps.notifications;
    this.firstPeriod = deps.firstPeriod;
    this.runtime = deps.runtime;
    this.events = deps.events;
    this.pendingRenewals = deps.pendingRenewals;
  }

  /** Tells the reconciler, once committed, that a game's wanted state changed: it acts now rather than at its next round. */
  actionAsked(gameId: string): void {
    void this.events.emit('games.actionAsked', { gameId });
  }

  /** Who owns a game and what it is, for the sharing checks; null for no such game, or a deleted one. */
  async ownerOf(id: string, executor: Executor = this.db): Promise<Pick<GameRow, 'id' | 'ownerId' | 'name' | 'version' | 'status'> | null> {
    const [row] = await executor
      .select({ id: games.id, ownerId: games.ownerId, name: games.name, version: games.version, status: games.status })
      .from(games)
      .where(and(eq(games.id, id), isNull(games.deletedAt)));
    return row ?? null;
  }

  /** The games of these ids, for the list of games shared with someone. */
  async summaries(ids: string[]): Promise<Array<Pick<GameRow, 'id' | 'ownerId' | 'name' | 'version' | 'status'>>> {
    if (ids.length === 0) return [];
    return this.db.select({ id: games.id, ownerId: games.ownerId, name: games.name, version: games.version, status: games.status }).from(games).where(inArray(games.id, ids));
  }

  /** A game's row; 404 for no such game, or a deleted one (who may read it was checked before: the sharing guard). */
  async row(id: string): Promise<GameRow> {
    const [row] = await this.db
      .select()
      .from(games)
      .where(and(eq(games.id, id), isNull(games.deletedAt)));
    if (!row) throw notFound('game');
    return row;
  }

  /**
   * Buys a game: its first period is paid (the money module's `FirstPeriod`: the promo code's use,
   * the ledger's charge, the first game payment) in the game row's transaction, so a short balance
   * or an unusable code (402, 404, 422) leaves neither a charge, a use nor a game. The server is then
   * provisioned; if that fails the game still exists and its first start provisions it again.
   */
  async create(ownerId: string, input: GameCreate & { addressName: string }): Promise<Game> {
    const { definition, package: pkg } = await this.catalogue.offer(input.definitionId, input.packageId);
    const defaults = definition.settings;
    const settings: ResolvedSettings = {
      motd: input.settings?.motd ?? defaults.motd ?? input.name.slice(0, 59),
      gameMode: input.settings?.gameMode ?? defaults.gameMode ?? 'survival',
      difficulty: input.settings?.difficulty ?? defaults.difficulty ?? 'normal',
      seed: input.settings?.seed ?? defaults.seed ?? null,
    };
    const now = this.runtime.clock();
    const row = await this.db
      .transaction(async (tx) => {
        const [game] = await tx
          .insert(games)
          .values({
            ownerId,
            definitionId: definition.id,
            packageId: pkg.id,
            name: input.name,
            addressName: input.addressName,
            version: definition.version,
            ramMb: pkg.ramMb,
            maxPlayers: pkg.maxPlayers,
            settings,
            autoRenew: input.autoRenew ?? false,
            statusChangedAt: now,
            periodEnd: new Date(now.getTime() + pkg.periodDays * DAY_MS),
          })
          .returning();
        await this.firstPeriod.charge(tx, { gameId: game!.id, ownerId, gameName: input.name, package: pkg, promoCode: input.promoCode, periodStart: now, periodEnd: game!.periodEnd });
        return game!;
      })
      .catch((err: unknown) => {
        // Staff deleted the package between the look-up and the purchase.
        if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw notFound('gamePackage');
        if (isUniqueViolation(err)) throw conflict('games.addressNameTaken'); // bought at the same instant
        throw err;
      });
    try {
      await this.runtime.driver.provision(await specOf(this.db, row));
    } catch (err) {
      this.runtime.log.warn({ err, gameId: row.id }, 'provisioning failed; the first start tries again');
    }
    await this.notifications.changed(ownerId, { resource: 'games', ids: [row.id], type: 'created' });
    // What other modules keep per game (its nightly backup).
    await this.events.emit('games.created', { gameId: row.id });
    return toGame(row);
  }

  /** What the driver is told about each RUNNING game, for the usage sampler. */
  async runningSpecs(): Promise<GameSpec[]> {
    const rows = await this.db.select().from(games).where(eq(games.status, 'RUNNING'));
    return Promise.all(rows.map((row) => specOf(this.db, row)));
  }

  /** One of the owner's games, with its renewal waiting to be paid. */
  async get(id: string): Promise<Game> {
    const [game] = await this.withRenewals([await this.row(id)]);
    return game!;
  }

  /**
   * Games with their PENDING renewal (at most one per game: the one for the period after
   * periodEnd), so the web can offer to pay it without another call.
   */
  async withRenewals<R extends GameRow>(rows: R[]): Promise<Array<Game & { renewal: GamePayment | null }>> {
    const pending = await this.pendingRenewals(rows);
    return rows.map((row) => ({ ...toGame(row), renewal: pending.get(row.id) ?? null }));
  }

  /** The owner's games, newest first; a deleted one is gone. */
  async list(ownerId: string, filter: StatusFilter, window: Window) {
    return this.page([eq(games.ownerId, ownerId), isNull(games.deletedAt)], filter, window);
  }

  private async page(conditions: SQL[], filter: StatusFilter, window: Window) {
    const only = statusSet(filter.status);
    const ignored = statusSet(filter.ignoredStatus);
    const where = and(...conditions, ...(only ? [inArray(games.status, only)] : []), ...(ignored ? [notInArray(games.status, ignored)] : []));
    const [rows, [total]] = await Promise.all([
      this.db.select().from(games).where(where).orderBy(desc(games.createdAt), desc(games.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(games).where(where),
    ]);
    return pageOf(await this.withRenewals(rows), total?.n ?? 0, window);
  }

  /** True when the user has ever bought a game of the definition (who may review it). */
  async hasCreatedGameOf(userId: string, definitionId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: games.id })
      .from(games)
      .where(and(eq(games.ownerId, userId), eq(games.definitionId, definitionId)))
      .limit(1);
    return !!row;
  }

  /** The ledger entries this game caused (its charges and renewals), newest first. */
  async transactions(id: string, locale: Locale, window: Window) {
    const row = await this.row(id);
    return this.credits.entriesByRef(row.ownerId, 'game', id, locale, window);
  }

  /**
   * start, stop or restart: one conditional UPDATE, so two clicks or a click racing the reconciler
   * cannot both win; 409 with the current status when the action does not apply to it, or with the
   * world operation holding the game's lock (a backup, a restore) while one runs. A start
   * (or a restart of a crashed game) while the host has no room for one more server changes
   * nothing and answers 503 with Retry-After; a running game's restart gives its own room back.
   */
  async act(id: string, action: GameAction): Promise<Game> {
    const rule = actions[action];
    const allowed: readonly GameStatus[] = rule.from;
    const needsRoom: readonly GameStatus[] = action === 'start' ? allowed : action === 'restart' ? ['CRASHED'] : [];
    const from = needsRoom.length > 0 && !(await this.hasCapacity()) ? allowed.filter((s) => !needsRoom.includes(s)) : [...allowed];
    const now = this.runtime.clock();
    let row: GameRow | undefined;
    if (from.length > 0) {
      [row] = await this.db
        .update(games)
        .set(actionWrite(action, now))
        .where(and(eq(games.id, id), isNull(games.deletedAt), inArray(games.status, from), GameLock.free(now)))
        .returning();
    }
    if (!row) {
      const current = await this.row(id);
      // A backup or a restore works on the world: the action waits for it to end (lock.ts).
      const held = GameLock.heldFor(current, now);
      if (held) throw conflict(lockRefusals[held], { status: current.status });
      if (needsRoom.includes(current.status) && !from.includes(current.status)) {
        throw new HttpProblem(
          503,
          'games.noCapacity',
          { seconds: NO_CAPACITY_RETRY_SECONDS },
          {
            headers: { 'retry-after': String(NO_CAPACITY_RETRY_SECONDS) },
          },
        );
      }
      throw conflict(rule.refusal, { status: current.status });
    }
    await this.notifications.changed(row.ownerId, { resource: 'games', ids: [row.id], type: 'updated' });
    this.actionAsked(row.id);
    return toGame(row);
  }

  /** The driver's look at its room; a failed look lets the start through (the reconciler waits if it must). */
  private async hasCapacity(): Promise<boolean> {
    try {
      return (await this.runtime.driver.hasCapacity?.()) ?? true;
    } catch (err) {
      this.runtime.log.warn({ err }, 'capacity check failed');
      return true;
    }
  }

  /** The internal stop: whatever the status, the game should be stopped; idempotent. */
  async stopInternal(id: string): Promise<void> {
    const now = this.runtime.clock();
    const [row] = await this.db.select().from(games).where(eq(games.id, id));
    if (!row) throw notFound('game');
    const stopping = (['STARTING', 'RUNNING', 'CRASHED'] as GameStatus[]).includes(row.status);
    // A sleeping server is stopped already (its world saved): it only stays so.
    const asleep = row.status === 'SLEEPING';
    await this.db
      .update(games)
      .set({
        desiredState: 'stopped',
        nextAttemptAt: null,
        ...(stopping ? { status: 'STOPPING' as const, statusReason: null, statusChangedAt: now, launchedAt: null } : {}),
        ...(asleep ? { status: 'STOPPED' as const, statusChangedAt: now } : {}),
        stateVersion: sql`${games.stateVersion} + 1`,
        updatedAt: now,
      })
      .where(eq(games.id, id));
    await this.notifications.changed(row.ownerId, { resource: 'games', ids: [id], type: 'updated' });
    if (stopping) this.actionAsked(id);
  }

  /** Live status: asked of the server while it runs, from the database otherwise. */
  async status(id: string): Promise<GameStatusView> {
    const row = await this.row(id);
    const view: GameStatusView = { status: row.status, playersOnline: 0, maxPlayers: row.settings.maxPlayers ?? row.maxPlayers, version: row.version, motd: row.settings.motd, address: null };
    if (row.status !== 'RUNNING') return view;
    try {
      const observed = await this.runtime.driver.observe(await specOf(this.db, row));
      // Recorded RUNNING but not answering now (the API just restarted and the reconciler has yet
      // to relaunch it, or it hangs): say what the player would find, until the reconciler acts.
      if (observed.status !== 'RUNNING') return { ...view, status: observed.status === 'CRASHED' ? 'CRASHED' : 'STARTING' };
      return {
        ...view,
        playersOnline: observed.playersOnline,
        maxPlayers: observed.maxPlayers,
        version: observed.version ?? view.version,
        motd: observed.motd ?? view.motd,
        address: observed.address,
      };
    } catch (err) {
      this.runtime.log.warn({ err, gameId: id }, 'observe failed');
      return view;
    }
  }

  /**
   * A console command on the owner's running game (409 otherwise): the server's answer. The
   * command, then its answer, go in the game's console, so its history shows what was run.
   */
  async command(id: string, command: string): Promise<string> {
    const row = await this.row(id);
    if (row.status !== 'RUNNING') throw conflict('console.notRunning', { status: row.status });
    const { driver, consoles } = this.runtime;
    consoles.note(row, [{ level: 'info', text: command, command: true }]);
    let answer: string;
    try {
      answer = await driver.rcon(await specOf(this.db, row), command);
    } catch {
      consoles.note(row, [{ level: 'error', text: 'The server did not answer' }]);
      throw new HttpProblem(503, 'games.noAnswer');
    }
    consoles.note(
      row,
      answer
        .split('\n')
        .map((text) => text.trimEnd())
        .filter(Boolean)
        .map((text) => ({ level: 'info', text })),
    );
    return answer;
  }

  /**
   * Tells the owner's friends that the game is open, with its address: 409 unless it runs, 503
   * when its address cannot be read, 429 (with Retry-After) within 10 minutes of the last
   * announcement. The slot is taken by a conditional UPDATE in the transaction that writes the
   * notifications, so two calls at once cannot both announce and a failure leaves the slot free.
   */
  async announce(id: string, ownerName: string, named: string | null = null): Promise<{ notified: number; address: string }> {
    const row = await this.row(id);
    if (row.status !== 'RUNNING') throw conflict('games.announceNotRunning', { status: row.status });
    let address: string | null;
    try {
      // The name the gateway answers to when it runs (`named`), as the game page shows; else the server's own.
      address = named ?? (await this.runtime.driver.observe(await specOf(this.db, row))).address;
    } catch (err) {
      throw new HttpProblem(503, 'games.noAnswer');
    }
    if (!address) throw new HttpProblem(503, 'games.noAddress');
    const now = this.runtime.clock();
    const since = new Date(now.getTime() - ANNOUNCE_INTERVAL_MS);
    return this.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(games)
        .set({ announcedAt: now })
        .where(and(eq(games.id, id), or(isNull(games.announcedAt), lte(games.announcedAt, since))))
        .returning({ id: games.id });
      if (!claimed) {
        const [current] = await tx.select({ announcedAt: games.announcedAt }).from(games).where(eq(games.id, id));
        const next = new Date((current?.announcedAt ?? now).getTime() + ANNOUNCE_INTERVAL_MS);
        const seconds = Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000));
        throw new HttpProblem(429, 'games.announcedRecently', { at: (current?.announcedAt ?? now).toISOString(), next: next.toISOString(), seconds }, { headers: { 'retry-after': String(seconds) } });
      }
      const friendIds = await this.friends.friendIds(row.ownerId, tx);
      const notice = { key: 'game.announced', params: { name: row.name, owner: ownerName, address }, link: '/dashboard' };
      for (const friendId of friendIds) await this.notifications.notify(friendId, notice, tx);
      return { notified: friendIds.length, address };
    });
  }

  /** The ids of the owner's games not deleted, for the parts of their data export kept per game. */
  async ownedIds(ownerId: string): Promise<string[]> {
    const owned = and(eq(games.ownerId, ownerId), isNull(games.deletedAt));
    return (await this.db.select({ id: games.id }).from(games).where(owned).orderBy(games.createdAt)).map((r) => r.id);
  }
}
