import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { games } from '../../db/schema/games.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { Message } from '../../../contract/messages.ts';
import { bothLanguages } from '../../lib/messages.ts';
import { NoCapacityError, type GameSpec } from '../../../runtime/driver.ts';
import { leaseGames, listChanges, reasonOf, specOf, type GameRow, type GameRuntime } from './runtime.ts';
import type { EventBus } from '../../events.ts';
import { GameLock } from './lock.ts';
import { STATUS_CHANNEL } from './world.ts';
import { settingDefaults } from '../../../contract/values.ts';

export interface ReconcilerOptions {
  /** A start not RUNNING after this long ends CRASHED. */
  startTimeoutMs: number;
  /** Pause between rounds; the loop runs only once `start()` is called with it on. */
  intervalMs: number;
  /** Waits before each restart after a crash: the first, second, third... */
  backoffMs?: number[];
  /** At most this many crash restarts in `restartWindowMs`; one more crash leaves the game CRASHED. */
  maxRestarts?: number;
  restartWindowMs?: number;
  /** How long a replica keeps a game to itself; longer than the slowest driver call (a stop that saves the world). */
  leaseMs?: number;
}

/** How many games one round takes; the rest wait for the next round. */
const BATCH = 50;
/** While a server starts its owner waits: between full rounds, look at starting servers this often. */
const STARTING_POLL_MS = 250;
/** The status reason of a game the host has no room for yet. */
export const WAITING_FOR_CAPACITY = 'Waiting for a free server slot: it starts as soon as one is free';
type Patch = Partial<Omit<GameRow, 'id' | 'stateVersion'>>;

/**
 * Drives every game's observed status toward what its owner wants, through the driver.
 *
 * Each round leases the games that need attention (`FOR UPDATE SKIP LOCKED`, then a lease column,
 * so replicas never act on the same game and no transaction stays open across slow driver calls).
 * Every write is conditional on the state version it read: an owner's click in between wins, and
 * the next round acts on it.
 *
 * A server seen stopped that this process never launched nor saw running is a server of a previous
 * process (an API restart): it is started again without counting as a crash. A crash is restarted
 * after a back-off, at most `maxRestarts` times in `restartWindowMs`; the owner is told each time.
 * A start the driver has no room for (NoCapacityError) stays STARTING, unlaunched, and is tried
 * again each full round: no crash, and the start timeout counts from the launch.
 */
export class Reconciler {
  private readonly db: Db;
  private readonly runtime: GameRuntime;
  private readonly notifications: NotificationsService;
  private readonly options: Required<ReconcilerOptions>;
  private readonly replica = randomUUID();
  /** Games this process launched or saw running: seen stopped afterwards, they crashed. */
  private readonly mine = new Set<string>();
  /** Running games seen not answering, and since when (clock ms). */
  private readonly silentSince = new Map<string, number>();
  /** Running games seen with nobody on them, and since when (clock ms): past the game's setting, they sleep. */
  private readonly emptySince = new Map<string, number>();
  /** Who was online at the last look at each running game, so their owners hear when it changes. */
  private readonly online = new Map<string, string>();
  /** What each game this process launched was launched with, until it is seen running. */
  private readonly launchedWith = new Map<string, GameSpec>();
  private round: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private looping = false;
  /** Games this replica holds the lease of now, and those asked for at once meanwhile (`now`). */
  private readonly leasedHere = new Set<string>();
  private readonly nowAgain = new Set<string>();
  /** Those turns under way, which `stop` waits for; none begins once it is called. */
  private readonly turns = new Set<Promise<void>>();
  private stopped = false;
  /** Woken during a round: run another as soon as it ends. */
  private again = false;
  /** When the last full round began (performance.now()), and whether a game was left starting. */
  private lastFullAt = 0;
  private starting = false;

  private readonly events: EventBus;

  constructor(db: Db, runtime: GameRuntime, notifications: NotificationsService, events: EventBus, options: ReconcilerOptions) {
    this.db = db;
    this.runtime = runtime;
    this.notifications = notifications;
    this.events = events;
    // An owner's action is acted on at once rather than at the next round.
    events.on('games.actionAsked', () => this.wake());
    // A wake, and a server ready for logins, are a held login's whole wait: that game is acted on
    // at once, loop or no loop, rather than at a round (a full one, or the quick looks at starting servers).
    events.on('games.wakeAsked', ({ gameId }) => void this.now(gameId));
    runtime.driver.onReady?.((gameId) => void this.now(gameId));
    this.options = { backoffMs: [5_000, 30_000, 120_000], maxRestarts: 3, restartWindowMs: 10 * 60_000, leaseMs: 5 * 60_000, ...options };
  }

  /** Starts the loop: rounds every `intervalMs` (and at once when woken). */
  start(): void {
    this.looping = true;
    this.schedule(0);
  }

  /** Stops the loop and waits for the round in progress. Games keep their desired state. */
  async stop(): Promise<void> {
    this.looping = false;
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.all([this.round, ...this.turns]);
  }

  /** Asks for a round now (after an owner's action) instead of at the next interval. */
  wake(): void {
    if (!this.looping) return;
    if (this.round) this.again = true;
    else this.schedule(0);
  }

  /** A match server wanted at its match's commit: launched by a turn of its own, then a round (whose quick looks follow a start). */
  wanted(gameId: string): void {
    if (this.looping) void this.now(gameId).then(() => this.wake());
  }

  /**
   * The loop: a full round every `intervalMs`, and between them, while a server is starting,
   * quick rounds over the starting servers only, so RUNNING shows soon after the server is ready
   * without observing every running server that often.
   */
  private schedule(ms: number, startingOnly = false) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.roundOf(startingOnly).finally(() => {
        const soon = this.again;
        this.again = false;
        if (!this.looping) return;
        if (soon) return this.schedule(0);
        const untilFull = this.options.intervalMs - (performance.now() - this.lastFullAt);
        if (this.starting && untilFull > STARTING_POLL_MS) this.schedule(STARTING_POLL_MS, true);
        else this.schedule(Math.max(0, untilFull));
      });
    }, ms);
  }

  /** One round over every game that needs attention. Tests call it directly. */
  tick(): Promise<void> {
    return this.roundOf(false);
  }

  private roundOf(startingOnly: boolean): Promise<void> {
    if (!startingOnly) this.lastFullAt = performance.now();
    this.round ??= this.reconcileAll(startingOnly)
      .catch((err: unknown) => this.runtime.log.error({ err }, 'reconciler round failed'))
      .finally(() => (this.round = undefined));
    return this.round;
  }

  /** The games a round acts on now: those that need attention and no replica holds (`only`: one game). */
  private due(now: Date, only: { startingOnly: boolean; gameId?: string }) {
    return this.db
      .select({ id: games.id })
      .from(games)
      .where(
        and(
          or(eq(games.desiredState, 'running'), inArray(games.status, ['STARTING', 'STOPPING'])),
          // A sleeping game is left alone: a player joining wakes it (sleep.ts), or its owner's action.
          notInArray(games.status, ['EXPIRED', 'SLEEPING']),
          // A crashed game waits for its restart time; without one it was given up.
          or(ne(games.status, 'CRASHED'), and(isNotNull(games.nextAttemptAt), lte(games.nextAttemptAt, now))),
          or(isNull(games.leaseUntil), lt(games.leaseUntil, now)),
          // A game being restored is only stopped: the restore starts it once its world is back (lock.ts).
          or(eq(games.status, 'STOPPING'), GameLock.free(now), ne(games.lockedFor, 'RESTORE')),
          only.startingOnly ? and(eq(games.status, 'STARTING'), isNotNull(games.launchedAt)) : undefined,
          only.gameId ? eq(games.id, only.gameId) : undefined,
        ),
      )
      .orderBy(asc(games.statusChangedAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
  }

  /**
   * One game's turn at once, outside the rounds and whether they loop or not: a wake's start, or a
   * server its driver says is ready. Leased as a round leases, so one replica acts on it; held by
   * this replica's round meanwhile, it gets another turn once that one ends; held by another
   * replica, that replica's own turn or the next round sees it.
   */
  now(gameId: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.leasedHere.has(gameId)) {
      this.nowAgain.add(gameId);
      return Promise.resolve();
    }
    const turn = (async () => {
      const now = this.runtime.clock();
      const [leased] = await leaseGames(this.db, this.due(now, { startingOnly: false, gameId }), this.replica, new Date(now.getTime() + this.options.leaseMs));
      if (leased) await this.reconcile(leased);
    })()
      .catch((err: unknown) => this.runtime.log.error({ err, gameId }, 'reconciling a game at once failed'))
      .finally(() => this.turns.delete(turn));
    this.turns.add(turn);
    return turn;
  }

  private async reconcileAll(startingOnly: boolean): Promise<void> {
    const now = this.runtime.clock();
    const leased = await leaseGames(this.db, this.due(now, { startingOnly }), this.replica, new Date(now.getTime() + this.options.leaseMs));
    await Promise.all(leased.map((game) => this.reconcile(game)));
    // Launched servers only: one waiting for capacity is tried again at full rounds, not every 250 ms.
    const [stillStarting] = await this.db
      .select({ id: games.id })
      .from(games)
      .where(and(eq(games.status, 'STARTING'), isNotNull(games.launchedAt)))
      .limit(1);
    this.starting = stillStarting !== undefined;
  }

  private async reconcile(leased: GameRow): Promise<void> {
    this.leasedHere.add(leased.id);
    try {
      let game: GameRow | undefined = leased;
      if (game.status === 'STOPPING') game = await this.stopServer(game);
      if (game?.status === 'CRASHED') game = await this.write(game, { status: 'STARTING', statusReason: null, statusChangedAt: this.runtime.clock(), launchedAt: null, nextAttemptAt: null });
      if (game?.status === 'STARTING' && !game.launchedAt) await this.launch(game);
      else if (game && game.desiredState === 'running' && (game.status === 'STARTING' || game.status === 'RUNNING')) await this.watch(game);
    } catch (err) {
      this.runtime.log.error({ err, gameId: leased.id }, 'reconciling a game failed');
    } finally {
      await this.db
        .update(games)
        .set({ leaseOwner: null, leaseUntil: null })
        .where(and(eq(games.id, leased.id), eq(games.leaseOwner, this.replica)))
        .catch((err: unknown) => this.runtime.log.warn({ err, gameId: leased.id }, 'lease not given back: it lapses'));
      this.leasedHere.delete(leased.id);
      if (this.nowAgain.delete(leased.id)) void this.now(leased.id);
    }
  }

  /** Writes over the state that was read, or nothing (undefined) when someone changed it since. */
  private async write(game: GameRow, patch: Patch, executor: Executor = this.db): Promise<GameRow | undefined> {
    const [row] = await executor
      .update(games)
      .set({ ...patch, stateVersion: game.stateVersion + 1, updatedAt: this.runtime.clock() })
      .where(and(eq(games.id, game.id), eq(games.stateVersion, game.stateVersion)))
      .returning();
    if (row) await this.notifications.changed(row.ownerId, { resource: 'games', ids: [row.id], type: 'updated' }, executor);
    if (row && row.status !== game.status) await this.events.emit('games.statusChanged', { game: row, from: game.status, executor });
    return row;
  }

  /** A write and the owner's notice about it, together or not at all. */
  private async writeAndTell(game: GameRow, patch: Patch, notice: Message): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (await this.write(game, patch, tx)) {
        await this.notifications.notify(game.ownerId, { ...notice, link: `/dashboard/game/${game.id}` }, tx);
      }
    });
  }

  private async stopServer(game: GameRow): Promise<GameRow | undefined> {
    this.mine.delete(game.id);
    this.online.delete(game.id);
    // Its time without a player counts again from its next start.
    this.emptySince.delete(game.id);
    try {
      await this.runtime.driver.stop(await specOf(this.db, game));
    } catch (err) {
      await this.write(game, { status: 'CRASHED', statusReason: `Stop failed: ${reasonOf(err)}`, statusChangedAt: this.runtime.clock(), nextAttemptAt: null });
      return undefined;
    }
    const now = this.runtime.clock();
    // A restart asked for a stop, and the owner still wants it running: start it again.
    if (game.desiredState === 'running') return this.write(game, { status: 'STARTING', statusChangedAt: now, launchedAt: null });
    // Stopped because its renewal went unpaid (renewals/settlement.ts): EXPIRED only now that the world is saved.
    return this.write(game, { status: game.expiredAt ? 'EXPIRED' : 'STOPPED', statusChangedAt: now });
  }

  private async launch(game: GameRow): Promise<void> {
    this.emptySince.delete(game.id);
    try {
      const spec = await specOf(this.db, game);
      await this.runtime.driver.provision(spec);
      await this.runtime.driver.start(spec);
      this.launchedWith.set(game.id, spec);
    } catch (err) {
      if (err instanceof NoCapacityError) {
        // Nothing was launched: the game keeps its place, and the next round tries again.
        if (game.statusReason !== WAITING_FOR_CAPACITY) await this.write(game, { statusReason: WAITING_FOR_CAPACITY });
        return;
      }
      return this.crashed(game, bothLanguages('notices.game.reasons.startFailed', { detail: reasonOf(err) }));
    }
    this.mine.add(game.id);
    await this.write(game, { launchedAt: this.runtime.clock(), launchedPackageId: game.packageId, statusReason: null });
  }

  private async applyListChanges(game: GameRow): Promise<void> {
    const launched = this.launchedWith.get(game.id);
    this.launchedWith.delete(game.id);
    // The row as it is now: the round read it before the owner's last change, maybe.
    const [row] = await this.db.select().from(games).where(eq(games.id, game.id));
    if (!row) return;
    const now = await specOf(this.db, row);
    for (const command of listChanges(launched, now)) {
      try {
        await this.runtime.driver.rcon(now, command);
      } catch (err) {
        this.runtime.log.warn({ err, gameId: game.id, command }, 'player list change not applied; the next start applies it');
        return;
      }
    }
  }

  private async watch(game: GameRow): Promise<void> {
    let observed;
    try {
      observed = await this.runtime.driver.observe(await specOf(this.db, game));
    } catch (err) {
      // An unanswered look is no verdict; the next round looks again.
      this.runtime.log.warn({ err, gameId: game.id }, 'observe failed');
      return;
    }
    const now = this.runtime.clock();
    switch (observed.status) {
      case 'RUNNING': {
        this.mine.add(game.id);
        this.silentSince.delete(game.id);
        const online = observed.players.join('\n');
        if ((this.online.get(game.id) ?? '') !== online) await this.notifications.changed(game.ownerId, { resource: 'games', ids: [game.id], type: 'updated' });
        if (online) this.online.set(game.id, online);
        else this.online.delete(game.id);
        if (game.status === 'STARTING') {
          // Where the gateway sends its players, on the row for a gateway process (gateway-targets.ts).
          await this.write(game, { status: 'RUNNING', statusReason: null, statusChangedAt: now, gatewayTarget: await this.gatewayTarget(game) });
          // Written RUNNING first: from now on the API applies list changes live, and this sends
          // those it could not send while the server started.
          await this.applyListChanges(game);
        } else {
          await this.followTarget(game);
          await this.sleepIfEmpty(game, observed.players, now);
        }
        return;
      }
      case 'STARTING': {
        if (game.status === 'RUNNING') return this.unanswered(game, now);
        // From the launch: the time a start waited for capacity is not the server's.
        const since = game.launchedAt ?? game.statusChangedAt;
        if (game.status !== 'STARTING' || now.getTime() - since.getTime() < this.options.startTimeoutMs) return;
        const seconds = Math.round(this.options.startTimeoutMs / 1000);
        await this.runtime.driver.stop(await specOf(this.db, game)).catch((err: unknown) => this.runtime.log.warn({ err, gameId: game.id }, 'stop after start timeout failed'));
        this.mine.delete(game.id);
        const reason = `The server was not ready ${seconds} s after its start`;
        return this.writeAndTell(game, { status: 'CRASHED', statusReason: reason, statusChangedAt: now, nextAttemptAt: null }, { key: 'game.startTimeout', params: { name: game.name, seconds } });
      }
      case 'CRASHED':
        return this.crashed(game, observed.reason ?? bothLanguages('notices.game.reasons.unexpected'));
      case 'STOPPED': {
        if (this.mine.has(game.id)) return this.crashed(game, observed.reason ?? bothLanguages('notices.game.reasons.unexpected'));
        // Launched by a previous process (the API restarted): start it again, no crash to count.
        const resumed = await this.write(game, { status: 'STARTING', statusChangedAt: now, launchedAt: null });
        if (resumed) await this.launch(resumed);
        return;
      }
    }
  }

  /** The driver's `gatewayTarget` as the row keeps it (`host:port`), or null. */
  private async gatewayTarget(game: GameRow): Promise<string | null> {
    const target = await this.runtime.driver.gatewayTarget?.({ id: game.id }).catch(() => null);
    return target ? `${target.host}:${target.port}` : null;
  }

  /**
   * A running game's row says where its server is as the driver does (a game running since before
   * the row kept it), told to gateway processes with the status channel's notice: no state changes.
   */
  private async followTarget(game: GameRow): Promise<void> {
    const target = await this.gatewayTarget(game);
    if (!target || target === game.gatewayTarget) return;
    await this.db.update(games).set({ gatewayTarget: target }).where(eq(games.id, game.id));
    await this.db.execute(sql`select pg_notify(${STATUS_CHANNEL}, ${game.id})`);
  }

  /**
   * A running server with nobody on it for its `sleepAfterMinutes` (counted from this process's
   * first look at it empty) is saved and stopped through the driver, and written SLEEPING: no crash,
   * no notice, and the owner still wants it running, so the next player joining wakes it (sleep.ts).
   */
  private async sleepIfEmpty(game: GameRow, players: string[], now: Date): Promise<void> {
    const minutes = game.settings.sleepAfterMinutes ?? settingDefaults.sleepAfterMinutes;
    if (players.length > 0 || minutes === 0) return void this.emptySince.delete(game.id);
    const since = this.emptySince.get(game.id);
    if (since === undefined) return void this.emptySince.set(game.id, now.getTime());
    if (now.getTime() - since < minutes * 60_000) return;
    this.emptySince.delete(game.id);
    try {
      await this.runtime.driver.stop(await specOf(this.db, game));
    } catch (err) {
      // Still running, or not: the next round looks again and decides as usual.
      this.runtime.log.warn({ err, gameId: game.id }, 'stop to sleep failed');
      return;
    }
    this.mine.delete(game.id);
    this.online.delete(game.id);
    await this.write(game, { status: 'SLEEPING', statusReason: null, statusChangedAt: now, launchedAt: null });
  }

  /**
   * A running server whose process lives but no longer answers a ping and RCON (hung, or thrashing
   * out of memory): after as long as a start may take, it is stopped (killed if it must) and
   * counted as a crash, so it restarts with the same back-off.
   */
  private async unanswered(game: GameRow, now: Date): Promise<void> {
    const since = this.silentSince.get(game.id);
    if (since === undefined) {
      this.silentSince.set(game.id, now.getTime());
      return;
    }
    if (now.getTime() - since < this.options.startTimeoutMs) return;
    this.silentSince.delete(game.id);
    await this.runtime.driver.stop(await specOf(this.db, game)).catch((err: unknown) => this.runtime.log.warn({ err, gameId: game.id }, 'stop of an unanswering server failed'));
    return this.crashed(game, bothLanguages('notices.game.reasons.unanswered', { seconds: Math.round((now.getTime() - since) / 1000) }));
  }

  /**
   * A crash: a restart after a back-off, unless the game already used its restarts of the window. `why` is
   * the runtime's own words (a driver's, a process's exit), passed on as they are, or ours in both
   * languages, which the owner's notice gives in theirs (the back office reads the English).
   */
  private async crashed(game: GameRow, why: string | { fr: string; en: string }): Promise<void> {
    this.mine.delete(game.id);
    this.online.delete(game.id);
    const reason = typeof why === 'string' ? why.slice(0, 300) : { fr: why.fr.slice(0, 300), en: why.en.slice(0, 300) };
    const statusReason = typeof reason === 'string' ? reason : reason.en;
    const now = this.runtime.clock();
    const { backoffMs, maxRestarts, restartWindowMs } = this.options;
    const recent = game.crashRestarts.filter((t) => now.getTime() - t.getTime() < restartWindowMs);
    const base = { status: 'CRASHED' as const, statusReason, statusChangedAt: now };
    if (recent.length >= maxRestarts) {
      const minutes = Math.round(restartWindowMs / 60_000);
      return this.writeAndTell(game, { ...base, nextAttemptAt: null, crashRestarts: recent }, { key: 'game.crashedStopped', params: { name: game.name, reason, count: recent.length + 1, minutes } });
    }
    const delay = backoffMs[Math.min(recent.length, backoffMs.length - 1)] ?? 0;
    return this.writeAndTell(
      game,
      { ...base, nextAttemptAt: new Date(now.getTime() + delay), crashRestarts: [...recent, now] },
      { key: 'game.crashed', params: { name: game.name, reason, seconds: Math.round(delay / 1000) } },
    );
  }
}
