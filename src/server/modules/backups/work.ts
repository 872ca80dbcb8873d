import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { backupLinks, backups, backupSettings } from '../../db/schema/backups.ts';
import type { ErrorKey } from '../../lib/problems.ts';
import type { ObjectStore } from '../../storage/store.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { GameWorld, GameWorlds } from '../games/world.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { BackupKind, BackupReason } from '../../../contract/backups.ts';
import { NoWorldError, UnsupportedError, type GameDriver } from '../../../runtime/driver.ts';
import type { Clock } from '../games/runtime.ts';
import type { GameLock } from '../games/lock.ts';

export type BackupRow = typeof backups.$inferSelect;
/** A backup to take: asked for by someone (MANUAL, with their note), or nightly or automatic, with why. */
export type NewBackup = { kind: BackupKind; reason?: BackupReason; note?: string; by: string | null };

/** How long the launcher may take to write a backup to the store's location. */
const WRITE_LOCATION_SEC = 6 * 3600;
/** A running backup's progress is written at most this often. */
const PROGRESS_MS = 1000;
export const MB = 1024 * 1024;

export interface BackupWorkDeps {
  store: ObjectStore;
  driver: GameDriver;
  worlds: GameWorlds;
  catalogue: CatalogueService;
  notifications: NotificationsService;
  lock: GameLock;
  /** Who, besides its owner, the game is shared with. */
  audience: (gameId: string) => Promise<string[]>;
  clock: Clock;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * The work on a game's world that the calls and the rounds share (docs/architecture.md,
 * "Backups"): taking a backup, putting one back, pruning beyond the quota. The world is archived
 * where it lives (the launcher of a running server, or a child tool for a stopped one) straight
 * into the object store's location: no world byte passes through this process. A backup is READY
 * only once stored whole and checksummed; one cut off by a crash is found by its silent heartbeat
 * and ends FAILED, its partial object deleted. Each piece of work runs under its game's lock
 * (games/lock.ts), which its caller took.
 */
export class BackupWork {
  private readonly db: Db;
  private readonly store: ObjectStore;
  private readonly driver: GameDriver;
  private readonly worlds: GameWorlds;
  private readonly catalogue: CatalogueService;
  private readonly notifications: NotificationsService;
  private readonly lock: GameLock;
  private readonly audience: (gameId: string) => Promise<string[]>;
  private readonly options: Pick<BackupWorkDeps, 'clock' | 'log'>;
  /** Work running in this process, so shutdown and tests can wait for it. */
  private readonly running = new Set<Promise<unknown>>();

  constructor(db: Db, deps: BackupWorkDeps) {
    this.db = db;
    this.store = deps.store;
    this.driver = deps.driver;
    this.worlds = deps.worlds;
    this.catalogue = deps.catalogue;
    this.notifications = deps.notifications;
    this.lock = deps.lock;
    this.audience = deps.audience;
    this.options = { clock: deps.clock, log: deps.log };
  }

  private now(): Date {
    return this.options.clock();
  }

  /**
   * Takes a backup the caller locked the game for, in the background, and frees the game: as the
   * backup turns READY (a restore of it asked at once is not refused), or once it failed.
   */
  takeInBackground(world: GameWorld, row: BackupRow): void {
    this.track(
      this.take(world, row, [], { freeWhenReady: true }).then(
        (failed) => (failed ? this.lock.release(world.id) : undefined),
        async (err: unknown) => {
          await this.lock.release(world.id);
          throw err;
        },
      ),
    );
  }

  async insert(world: GameWorld, input: NewBackup): Promise<BackupRow> {
    const id = randomUUID();
    const [row] = await this.db
      .insert(backups)
      .values({
        id,
        gameId: world.id,
        kind: input.kind,
        reason: input.reason ?? null,
        note: input.note ?? null,
        createdBy: input.by,
        objectKey: `games/${world.id}/${id}.zip`,
        heartbeatAt: this.now(),
        createdAt: this.now(),
      })
      .returning();
    await this.changed(world.ownerId, world.id, row!.id, 'created');
    return row!;
  }

  /**
   * Archives the world into the store and marks the backup READY, or FAILED with its object
   * removed, then prunes beyond the quota, never `keep` (the backup about to be restored). Resolves
   * with null once READY, or with why it failed. With `freeWhenReady`, the game's lock is released
   * in the write that makes it READY.
   */
  async take(world: GameWorld, row: BackupRow, keep: string[] = [], options: { freeWhenReady?: boolean } = {}): Promise<ErrorKey | null> {
    const beat = setInterval(() => void this.heartbeat(row).catch(() => {}), this.lock.heartbeatMs);
    try {
      await this.db.update(backups).set({ status: 'RUNNING', heartbeatAt: this.now() }).where(eq(backups.id, row.id));
      await this.changed(world.ownerId, world.id, row.id);
      const location = await this.store.writeLocation(row.objectKey, WRITE_LOCATION_SEC);
      const written = await this.driver.backup(world.spec, location, this.progressWriter(world.ownerId, world.id, row.id));
      const { sizeBytes } = await this.store.commitWrite(row.objectKey, location);
      if (sizeBytes !== written.sizeBytes) throw new Error(`stored ${sizeBytes} bytes of ${written.sizeBytes}`);
      const ready = await this.db.transaction(async (tx) => {
        const [done] = await tx
          .update(backups)
          .set({ status: 'READY', sizeBytes, sha256: written.sha256, finishedAt: this.now() })
          .where(and(eq(backups.id, row.id), eq(backups.status, 'RUNNING')))
          .returning();
        if (done && options.freeWhenReady) await this.lock.release(world.id, tx);
        return done;
      });
      // Marked FAILED meanwhile (its heartbeat was taken for dead): the object goes with it.
      if (!ready) throw new Error('the backup was given up while it ran');
      await this.changed(world.ownerId, world.id, row.id);
      await this.prune(world, [row.id, ...keep]);
      return null;
    } catch (err) {
      const why: ErrorKey = err instanceof UnsupportedError ? 'backups.unsupported' : err instanceof NoWorldError ? 'backups.noWorld' : 'backups.failed';
      // A world never started has nothing to keep: only a backup someone asked for (by hand, or by
      // a scheduled task, whose run ends with it) says so.
      if (why === 'backups.noWorld' && row.kind !== 'MANUAL' && row.reason !== 'scheduled') {
        await this.remove(world.ownerId, row);
        return why;
      }
      this.options.log.warn({ err, gameId: world.id, backupId: row.id }, 'backup failed');
      await this.fail(row, why);
      await this.changed(world.ownerId, world.id, row.id);
      if (row.kind === 'NIGHTLY') {
        await this.notifications.notify(world.ownerId, { key: 'backup.nightlyFailed', params: { name: world.name }, link: `/dashboard/game/${world.id}/backups` });
      }
      return why;
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * How far a running backup is, written to its row at most once a second and told to the owner's
   * pages, which read it from the list: any replica's page sees it.
   */
  private progressWriter(ownerId: string, gameId: string, id: string): (fraction: number) => void {
    let last = 0;
    let writing = false;
    return (fraction) => {
      const now = Date.now();
      if (writing || now - last < PROGRESS_MS) return;
      writing = true;
      last = now;
      void this.db
        .update(backups)
        .set({ progress: Math.round(fraction * 100) })
        .where(and(eq(backups.id, id), eq(backups.status, 'RUNNING')))
        .then(() => this.changed(ownerId, gameId, id))
        .catch((err: unknown) => this.options.log.warn({ err, backupId: id }, 'backup progress not written'))
        .finally(() => (writing = false));
    };
  }

  private async heartbeat(row: BackupRow): Promise<void> {
    const running = await this.db
      .update(backups)
      .set({ heartbeatAt: this.now() })
      .where(and(eq(backups.id, row.id), inArray(backups.status, ['PENDING', 'RUNNING'])))
      .returning({ id: backups.id });
    // Once READY the backup may have freed its game, which a restore may hold by now: not ours to renew.
    if (running.length > 0) await this.lock.renew(row.gameId);
  }

  async fail(row: BackupRow, error: ErrorKey): Promise<void> {
    await this.db.update(backups).set({ status: 'FAILED', error, finishedAt: this.now() }).where(eq(backups.id, row.id));
    await this.store.discard(row.objectKey).catch((err: unknown) => this.options.log.warn({ err, key: row.objectKey }, 'partial backup not deleted'));
  }

  /** Deletes the backups beyond the package's quota (`overQuota`); never those of `keep`. */
  private async prune(world: GameWorld, keep: string[]): Promise<void> {
    for (const row of await this.overQuota(world, keep)) await this.remove(world.ownerId, row);
  }

  /**
   * The READY backups to delete for the game to hold at most the package's count and size, with a
   * backup of `incoming` bytes still to come when given: unpinned ones, the automatic and nightly
   * ones first, oldest first, then the manual ones, oldest first. Never a pinned one, one of `keep`
   * (just taken, or being restored), nor one a download link is valid for (being downloaded): those
   * count toward the quota all the same, so it may stay over it until they are free to go.
   */
  async overQuota(world: GameWorld, keep: string[], incoming?: number): Promise<BackupRow[]> {
    const quota = await this.catalogue.backupQuota(world.packageId);
    const [ready, linked] = await Promise.all([
      this.db
        .select()
        .from(backups)
        .where(and(eq(backups.gameId, world.id), eq(backups.status, 'READY')))
        .orderBy(asc(backups.createdAt), asc(backups.id)),
      this.db
        .select({ id: backupLinks.backupId })
        .from(backupLinks)
        .innerJoin(backups, eq(backups.id, backupLinks.backupId))
        .where(and(eq(backups.gameId, world.id), gt(backupLinks.expiresAt, this.now()))),
    ]);
    const kept = new Set([...keep, ...linked.map((link) => link.id)]);
    let n = ready.length + (incoming === undefined ? 0 : 1);
    let bytes = ready.reduce((sum, row) => sum + (row.sizeBytes ?? 0), incoming ?? 0);
    // A stable sort: oldest first within each kind.
    const candidates = ready.filter((row) => !row.pinned && !kept.has(row.id)).sort((a, b) => Number(a.kind === 'MANUAL') - Number(b.kind === 'MANUAL'));
    const doomed: BackupRow[] = [];
    for (const row of candidates) {
      if (n <= quota.backupsKept && bytes <= quota.backupsMaxMb * MB) break;
      doomed.push(row);
      n--;
      bytes -= row.sizeBytes ?? 0;
    }
    return doomed;
  }

  /**
   * Before a game's world is deleted (expired past its retention, or the game deleted): its newest
   * finished backup stays until `until` (GAME_RETENTION_DAYS more, for its owner to download), the
   * others go now. Idempotent, so a deletion tried again does it again harmlessly.
   */
  async keepLast(world: GameWorld, until: Date): Promise<void> {
    const rows = await this.db
      .select()
      .from(backups)
      .where(and(eq(backups.gameId, world.id), inArray(backups.status, ['READY', 'FAILED'])))
      .orderBy(desc(backups.createdAt), desc(backups.id));
    const last = rows.find((row) => row.status === 'READY');
    if (last && !last.expiresAt) {
      await this.db.update(backups).set({ expiresAt: until }).where(eq(backups.id, last.id));
      await this.changed(world.ownerId, world.id, last.id);
    }
    for (const row of rows) if (row.id !== last?.id) await this.remove(world.ownerId, row);
  }

  async remove(ownerId: string, row: BackupRow): Promise<void> {
    await this.store.delete(row.objectKey);
    await this.db.delete(backups).where(eq(backups.id, row.id));
    await this.changed(ownerId, row.gameId, row.id, 'deleted');
  }

  /**
   * Puts a stored archive back (a backup, or an uploaded world) under the game's RESTORE lock, which
   * its caller took: a backup of the current world, then stop, swap, start, notify. What it puts
   * back, and whether the server is to run afterwards, is written on the game's `backup_settings`
   * first and cleared at the end: a process dying half-way leaves it, and the sweep resumes it
   * (`resumed`, with the `restart` recorded).
   */
  async putBack(world: GameWorld, source: Pick<BackupRow, 'id' | 'objectKey' | 'createdAt'>, reason: BackupReason, resumed?: { restart: boolean }): Promise<void> {
    const link = `/dashboard/game/${world.id}/backups`;
    const beat = setInterval(() => void this.lock.renew(world.id).catch(() => {}), this.lock.heartbeatMs);
    let restart = resumed?.restart ?? false;
    try {
      restart = resumed?.restart ?? (await this.worlds.wantsRunning(world.id));
      await this.db.update(backupSettings).set({ restoreFrom: source.objectKey, restoreAt: source.createdAt, restoreRestart: restart }).where(eq(backupSettings.gameId, world.id));
      // A world never started has nothing to keep; any other failure stops the restore.
      const safety = await this.insert(world, { kind: 'AUTOMATIC', reason, by: null });
      // The backup being restored stays, whatever the quota: pruning it would leave nothing to restore.
      const failed = await this.take(world, safety, [source.id]);
      if (failed && failed !== 'backups.noWorld') throw new Error('the backup of the current world failed');
      const { backupsMaxMb } = await this.catalogue.backupQuota(world.packageId);
      const stopped = await this.worlds.stopped(world.id);
      await this.driver.restore(stopped.spec, await this.store.readLocation(source.objectKey, WRITE_LOCATION_SEC), backupsMaxMb * MB);
      if (restart) await this.worlds.startAgain(world.id);
      const key = resumed ? 'backup.restoreResumed' : 'backup.restored';
      await this.notifications.notify(world.ownerId, { key, params: { name: world.name, at: source.createdAt.toISOString() }, link });
    } catch (err) {
      this.options.log.warn({ err, gameId: world.id, backupId: source.id }, 'restore failed');
      // The world as it was, running again if it ran (a resumed restore finds it stopped by the process that died).
      if (restart) await this.worlds.startAgain(world.id).catch((e: unknown) => this.options.log.warn({ err: e, gameId: world.id }, 'server not started again'));
      await this.notifications.notify(world.ownerId, { key: 'backup.restoreFailed', params: { name: world.name }, link });
    } finally {
      clearInterval(beat);
      await this.db.update(backupSettings).set({ restoreFrom: null, restoreAt: null, restoreRestart: null }).where(eq(backupSettings.gameId, world.id));
    }
  }

  /**
   * Tells the owner's open pages, and those of everyone the game is shared with, that a backup
   * changed: a co-admin watching the list sees it run and end as the owner does.
   */
  async changed(ownerId: string, gameId: string, id: string, type: 'created' | 'updated' | 'deleted' = 'updated'): Promise<void> {
    const shared = await this.audience(gameId);
    await this.notifications.changed([ownerId, ...shared], { resource: 'backups', ids: [id], type });
  }

  /** Runs work after the answer; shutdown and tests wait for it with `idle`. */
  track(work: Promise<unknown>): void {
    const tracked = work.catch((err: unknown) => this.options.log.error({ err }, 'backup work failed'));
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  /** Waits for the backups and restores this process runs (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
