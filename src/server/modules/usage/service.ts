import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { gameEvents, gameUsage } from '../../db/schema/usage.ts';
import { RoundLoop } from '../../lib/round-loop.ts';
import type { GameDriver, GameSpec } from '../../../runtime/driver.ts';
import type { Locale } from '../../../contract/messages.ts';
import type { Usage, UsageEvent, UsagePoint, UsageWindow } from '../../../contract/usage.ts';
import type { BackupsService } from '../backups/service.ts';
import type { GamesService } from '../games/service.ts';
import type { Clock, GameRow } from '../games/runtime.ts';
import type { EventBus } from '../../events.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Samples and events older than this are deleted. */
const KEPT_MS = 30 * DAY_MS;
const windows: Record<UsageWindow, { ms: number; samplesPerPoint: number }> = {
  '24h': { ms: DAY_MS, samplesPerPoint: 1 },
  // 7 days of minutes would be 10 080 points: ten samples make one, a chart's width of them.
  '7d': { ms: 7 * DAY_MS, samplesPerPoint: 10 },
};
/** Games probed at once in a round: each probe is a ping, an RCON login and a /proc read or an API call. */
const PROBES_AT_ONCE = 8;
const MB = 1024 * 1024;

export interface UsageOptions {
  clock: Clock;
  log: { error(obj: object, msg: string): void };
  /** How often each running game is sampled (a minute in production). */
  sampleIntervalMs: number;
}

/**
 * A game's usage history (docs/architecture.md, "Usage history"): each running game sampled once
 * per interval (players online, the server's memory and CPU), its starts, stops and crashes heard
 * from the reconciler, its backups read from the backups module, all kept 30 days.
 */
export class UsageService {
  private readonly db: Db;
  private readonly deps: { games: GamesService; backups: BackupsService; driver: GameDriver };
  private readonly options: UsageOptions;
  private loop: RoundLoop | undefined;

  constructor(db: Db, deps: { games: GamesService; backups: BackupsService; driver: GameDriver; events: EventBus }, options: UsageOptions) {
    this.db = db;
    this.deps = deps;
    this.options = options;
    deps.events.on('games.statusChanged', ({ game, from, executor }) => this.recordTransition(game, from, executor));
  }

  /**
   * Records a status change the reconciler wrote (`games.statusChanged`, in its write's transaction): reachable (start), stopped (stop, including the
   * stop of a restart), crashed or failed to start (crash). Others (starting, stopping) are steps.
   */
  private async recordTransition(row: GameRow, from: GameRow['status'], executor: Executor): Promise<void> {
    const kind =
      row.status === 'RUNNING'
        ? 'start'
        : row.status === 'CRASHED'
          ? 'crash'
          : row.status === 'STOPPED' || row.status === 'EXPIRED' || row.status === 'SLEEPING' || from === 'STOPPING'
            ? 'stop'
            : null;
    if (!kind) return;
    await executor.insert(gameEvents).values({ gameId: row.id, at: row.statusChangedAt, kind, reason: kind === 'crash' ? row.statusReason : null });
  }

  /**
   * One sample of every RUNNING game whose server this replica's driver sees, keyed by the start
   * of the current interval, so another replica's sample of the same game and interval is dropped;
   * then what is past 30 days goes. Answers how many samples it wrote.
   */
  async sampleRound(): Promise<number> {
    const now = this.options.clock();
    const interval = this.options.sampleIntervalMs;
    const at = new Date(Math.floor(now.getTime() / interval) * interval);
    const specs = await this.deps.games.runningSpecs();
    let written = 0;
    for (let i = 0; i < specs.length; i += PROBES_AT_ONCE) {
      const samples = await Promise.all(specs.slice(i, i + PROBES_AT_ONCE).map((spec) => this.probe(spec)));
      const rows = samples.flatMap((sample) => (sample ? [{ ...sample, at }] : []));
      if (rows.length === 0) continue;
      const inserted = await this.db.insert(gameUsage).values(rows).onConflictDoNothing().returning({ gameId: gameUsage.gameId });
      written += inserted.length;
    }
    const cutoff = new Date(now.getTime() - KEPT_MS);
    await this.db.delete(gameUsage).where(lt(gameUsage.at, cutoff));
    await this.db.delete(gameEvents).where(lt(gameEvents.at, cutoff));
    return written;
  }

  /** A game's sample, or null when its server is not seen running here; a failed probe is logged and skipped. */
  private async probe(spec: GameSpec) {
    try {
      const usage = await this.deps.driver.usage(spec);
      if (!usage) return null;
      const observed = await this.deps.driver.observe(spec);
      if (observed.status !== 'RUNNING') return null;
      return { gameId: spec.id, players: observed.playersOnline, memoryBytes: Math.round(usage.memoryBytes), cpuCores: usage.cpuCores, ramMb: spec.ramMb };
    } catch (err) {
      this.options.log.error({ err, gameId: spec.id }, 'sampling a game failed');
      return null;
    }
  }

  /** The game's samples and events over the window, oldest first. */
  async history(gameId: string, window: UsageWindow, locale: Locale): Promise<Usage> {
    const game = await this.deps.games.get(gameId);
    const to = this.options.clock();
    const from = new Date(to.getTime() - windows[window].ms);
    const [points, events, backups] = await Promise.all([
      this.points(gameId, from, windows[window].samplesPerPoint),
      this.db
        .select()
        .from(gameEvents)
        .where(and(eq(gameEvents.gameId, gameId), gte(gameEvents.at, from)))
        .orderBy(asc(gameEvents.at)),
      // A game keeps a few dozen backups at most (its package's quota): one page holds the window's.
      this.deps.backups.list(gameId, { limit: 100, offset: 0, page: 0, size: 100 }, locale),
    ]);
    const timeline: UsageEvent[] = [
      ...events.map((e) => ({ at: e.at.toISOString(), kind: e.kind, detail: e.reason })),
      ...backups.data.filter((b) => new Date(b.createdAt) >= from).map((b) => ({ at: b.createdAt, kind: 'backup' as const, detail: `${b.kind} ${b.status}` })),
    ].sort((a, b) => a.at.localeCompare(b.at));
    const sampleSeconds = Math.max(1, Math.round(this.options.sampleIntervalMs / 1000));
    return { window, from: from.toISOString(), to: to.toISOString(), ramMb: game.ramMb, sampleSeconds, points, events: timeline };
  }

  /** Samples as points: each one over 24 hours, averaged by `samplesPerPoint` (players: the most) beyond. */
  private async points(gameId: string, from: Date, samplesPerPoint: number): Promise<UsagePoint[]> {
    // Inlined (a number from the configuration), not a parameter: the same expression must group and select.
    const seconds = sql.raw(String((this.options.sampleIntervalMs * samplesPerPoint) / 1000));
    const bucket = sql<Date>`to_timestamp(floor(extract(epoch from ${gameUsage.at}) / ${seconds}) * ${seconds})`;
    const rows = await this.db
      .select({
        at: sql<string>`${bucket}`.mapWith((v: string | Date) => new Date(v)),
        players: sql<number>`max(${gameUsage.players})`.mapWith(Number),
        memoryBytes: sql<number>`avg(${gameUsage.memoryBytes})`.mapWith(Number),
        cpuCores: sql<number>`avg(${gameUsage.cpuCores})`.mapWith(Number),
        ramMb: sql<number>`max(${gameUsage.ramMb})`.mapWith(Number),
      })
      .from(gameUsage)
      .where(and(eq(gameUsage.gameId, gameId), gte(gameUsage.at, from)))
      .groupBy(bucket)
      .orderBy(bucket);
    const round = (n: number) => Math.round(n * 10) / 10;
    return rows.map((r) => ({
      at: r.at.toISOString(),
      players: r.players,
      memoryMb: round(r.memoryBytes / MB),
      memoryPercent: round((r.memoryBytes / MB / r.ramMb) * 100),
      cpuPercent: round(r.cpuCores * 100),
    }));
  }

  /**
   * Samples early in every interval (each minute) until `stop`. Rounds are timed to the interval's
   * start rather than spaced by it, so a round's own duration never drifts one past an interval,
   * which would leave it without a sample and break the chart's line there.
   */
  start(): void {
    const interval = this.options.sampleIntervalMs;
    this.loop ??= new RoundLoop(
      () => this.sampleRound(),
      () => interval - (Date.now() % interval) + Math.min(1000, interval / 10),
      (err) => this.options.log.error({ err }, 'usage round failed'),
    );
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
  }
}
