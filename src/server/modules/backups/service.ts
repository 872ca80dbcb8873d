import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { backupLinks, backups, backupSettings } from '../../db/schema/backups.ts';
import { conflict, forbidden, HttpProblem, notFound, type ErrorKey } from '../../lib/problems.ts';
import { RoundLoop } from '../../lib/round-loop.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import { renderProblem } from '../../lib/problems.ts';
import type { ObjectStore } from '../../storage/store.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { GameWorld, GameWorlds } from '../games/world.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { UsersService } from '../users/service.ts';
import type { Backup, BackupKind, BackupLink, BackupPatch, BackupPrune, BackupQuota, BackupReason, BackupSettings } from '../../../contract/backups.ts';
import type { GameAccessLevel } from '../../../contract/sharing.ts';
import type { Locale } from '../../../contract/messages.ts';
import { NoWorldError, UnsupportedError, type GameDriver } from '../../../runtime/driver.ts';
import { inspectArchive, MAX_UNPACK_RATIO, maxUnpackedFor, WorldArchiveError, type WorldArchiveCode } from '../../../runtime/minecraft/world-archive.ts';
import type { Clock } from '../games/runtime.ts';
import { nextNightly, validTimeZone } from './nightly.ts';
import type { AccessScope, EventBus, LevelCheck } from '../../events.ts';

type BackupRow = typeof backups.$inferSelect;
/** A backup to take: asked for by someone (MANUAL, with their note), or nightly or automatic, with why. */
type NewBackup = { kind: BackupKind; reason?: BackupReason; note?: string; by: string | null };

/**
 * Who may make a backup go (docs/product.md, "Backups"): unpin it, which lets the quota prune it,
 * or delete it (its route needs OWNER). The owner alone; a co-admin takes, pins, restores and downloads.
 */
const mayRemove = (as: GameAccessLevel) => as === 'OWNER';

/** How long the launcher may take to write a backup to the store's location. */
const WRITE_LOCATION_SEC = 6 * 3600;
/** A download link's life. */
const LINK_MS = 10 * 60_000;
/** A running backup's progress is written at most this often. */
const PROGRESS_MS = 1000;
/** An expired game's backup is taken within this long of its expiry, or not at all. */
const EXPIRY_WINDOW_MS = 7 * 24 * 3600_000;
const MB = 1024 * 1024;
/** The backup rounds' pace: a nightly backup starts within a minute of its hour. */
const ROUND_MS = 60_000;

export interface BackupsOptions {
  /** The API's public address, for download links. */
  publicUrl: string;
  /** Where uploaded worlds wait while their directory is read (a local disk of the API). */
  uploadDir: string;
  clock: Clock;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /**
   * A backup or restore claims its game this long, renewed while it runs (every sixth of it); one
   * silent this long was cut off by a crash, and the next backup round frees its game.
   */
  claimMs: number;
}

/**
 * Backups of games' worlds (docs/architecture.md, "Backups"). The world is archived where it lives
 * (the launcher of a running server, or a child tool for a stopped one) straight into the object
 * store's location: no world byte passes through this process. A backup is READY only once stored
 * whole and checksummed; one cut off by a crash is found by its silent heartbeat and ends FAILED,
 * its partial object deleted. At most one backup or restore works on a game at a time, on any
 * replica: each claims the game's `busy` column in one conditional write.
 */
export class BackupsService {
  private readonly db: Db;
  private readonly store: ObjectStore;
  private readonly driver: GameDriver;
  private readonly worlds: GameWorlds;
  private readonly catalogue: CatalogueService;
  private readonly notifications: NotificationsService;
  private readonly users: UsersService;
  private readonly audience: (gameId: string) => Promise<string[]>;
  private readonly options: BackupsOptions;
  /** Work running in this process, so shutdown and tests can wait for it. */
  private readonly running = new Set<Promise<unknown>>();
  private loop: RoundLoop | undefined;

  constructor(
    db: Db,
    deps: {
      store: ObjectStore;
      driver: GameDriver;
      worlds: GameWorlds;
      catalogue: CatalogueService;
      notifications: NotificationsService;
      users: UsersService;
      /** Who, besides its owner, the game is shared with. */
      audience: (gameId: string) => Promise<string[]>;
      events: EventBus;
    },
    options: BackupsOptions,
  ) {
    this.db = db;
    this.store = deps.store;
    this.driver = deps.driver;
    this.worlds = deps.worlds;
    this.catalogue = deps.catalogue;
    this.notifications = deps.notifications;
    this.users = deps.users;
    this.audience = deps.audience;
    this.options = options;
    deps.events.on('games.created', ({ gameId }) => this.initSettings(gameId));
    // What someone left behind on a game they lost stops working with their access.
    deps.events.on('sharing.accessEnded', ({ scope, executor, levelOf }) => this.linksLeft(scope, executor, levelOf));
  }

  private now(): Date {
    return this.options.clock();
  }

  /** How often running work renews its claim: a few misses still leave it claimed. */
  private get heartbeatMs(): number {
    return this.options.claimMs / 6;
  }

  async list(ownerId: string | null, gameId: string, window: Window, locale: Locale) {
    await this.worlds.of(ownerId, gameId);
    const where = eq(backups.gameId, gameId);
    const [rows, [total], quota] = await Promise.all([
      this.db.select().from(backups).where(where).orderBy(desc(backups.createdAt), desc(backups.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(backups).where(where),
      this.quotaOf(gameId),
    ]);
    return { ...pageOf(await this.views(rows, locale), total!.n, window), quota };
  }

  /** The package's quota and how much of it the game's READY backups fill. */
  private async quotaOf(gameId: string): Promise<BackupQuota> {
    const world = await this.worlds.of(null, gameId);
    const [{ backupsKept, backupsMaxMb }, [used]] = await Promise.all([
      this.catalogue.backupQuota(world.packageId),
      this.db
        .select({ n: count(), bytes: sql<number>`coalesce(sum(${backups.sizeBytes}), 0)`.mapWith(Number) })
        .from(backups)
        .where(and(eq(backups.gameId, gameId), eq(backups.status, 'READY'))),
    ]);
    return { kept: backupsKept, maxMb: backupsMaxMb, count: used!.n, sizeBytes: used!.bytes };
  }

  /**
   * What the next backup would delete (docs/product.md, "Backups"): one taken now or before an
   * upload, or, with `restoring`, the one taken before that backup's restore. Its size is taken to
   * be the newest backup's, the world's size when last seen.
   */
  async nextPrune(ownerId: string | null, gameId: string, restoring: string | undefined, locale: Locale): Promise<BackupPrune> {
    const world = await this.worlds.of(ownerId, gameId);
    const [newest] = await this.db
      .select({ sizeBytes: backups.sizeBytes })
      .from(backups)
      .where(and(eq(backups.gameId, gameId), eq(backups.status, 'READY')))
      .orderBy(desc(backups.createdAt), desc(backups.id))
      .limit(1);
    const doomed = await this.overQuota(world, restoring ? [restoring] : [], newest?.sizeBytes ?? 0);
    return { quota: await this.quotaOf(gameId), data: await this.views(doomed, locale) };
  }

  private async views(rows: BackupRow[], locale: Locale): Promise<Backup[]> {
    const authors = await this.users.names([...new Set(rows.flatMap((r) => (r.createdBy ? [r.createdBy] : [])))]);
    return rows.map((row) => this.view(row, locale, authors.get(row.createdBy ?? '') ?? null));
  }

  private view(row: BackupRow, locale: Locale, author: string | null): Backup {
    return {
      id: row.id,
      gameId: row.gameId,
      kind: row.kind,
      reason: row.reason,
      status: row.status,
      sizeBytes: row.sizeBytes,
      sha256: row.sha256,
      createdAt: row.createdAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      pinned: row.pinned,
      note: row.note,
      createdBy: author,
      progress: row.status === 'RUNNING' ? (row.progress ?? 0) : null,
      expiresAt: row.expiresAt?.toISOString() ?? null,
      error: row.error ? renderProblem(row.error as ErrorKey, {}, undefined, locale).detail : null,
    };
  }

  private async row(ownerId: string | null, gameId: string, backupId: string): Promise<{ world: GameWorld; row: BackupRow }> {
    const world = await this.worlds.of(ownerId, gameId);
    const [row] = await this.db
      .select()
      .from(backups)
      .where(and(eq(backups.id, backupId), eq(backups.gameId, gameId)));
    if (!row) throw notFound('backup');
    return { world, row };
  }

  /**
   * Takes a backup now, running or stopped (202): the answer is the PENDING backup, and its
   * progress arrives on the owner's event stream. 409 while another backup or a restore runs.
   */
  async create(ownerId: string | null, gameId: string, input: NewBackup, locale: Locale): Promise<Backup> {
    const world = await this.worlds.of(ownerId, gameId);
    if (world.worldDeleted) throw conflict('backups.worldDeleted');
    if (!(await this.claim(gameId, 'BACKUP'))) throw conflict('backups.busy');
    let row: BackupRow;
    try {
      row = await this.insert(world, input);
    } catch (err) {
      await this.release(gameId);
      throw err;
    }
    this.track(this.take(world, row).finally(() => this.release(gameId)));
    return this.view(row, locale, null);
  }

  /**
   * An automatic backup of the world before a change that could spoil it (a version change),
   * waited for: resolves with why it failed ('backups.noWorld' for a world never started), or null
   * once READY. 409 while another backup or a restore runs.
   */
  async backUpBefore(ownerId: string, gameId: string): Promise<ErrorKey | null> {
    const world = await this.worlds.of(ownerId, gameId);
    if (!(await this.claim(gameId, 'BACKUP'))) throw conflict('backups.busy');
    try {
      return await this.take(world, await this.insert(world, { kind: 'AUTOMATIC', reason: 'beforeVersionChange', by: null }));
    } finally {
      await this.release(gameId);
    }
  }

  private async insert(world: GameWorld, input: NewBackup): Promise<BackupRow> {
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
   * with null once READY, or with why it failed.
   */
  private async take(world: GameWorld, row: BackupRow, keep: string[] = []): Promise<ErrorKey | null> {
    const beat = setInterval(() => void this.heartbeat(row).catch(() => {}), this.heartbeatMs);
    try {
      await this.db.update(backups).set({ status: 'RUNNING', heartbeatAt: this.now() }).where(eq(backups.id, row.id));
      await this.changed(world.ownerId, world.id, row.id);
      const location = await this.store.writeLocation(row.objectKey, WRITE_LOCATION_SEC);
      const written = await this.driver.backup(world.spec, location, this.progressWriter(world.ownerId, world.id, row.id));
      const { sizeBytes } = await this.store.commitWrite(row.objectKey, location);
      if (sizeBytes !== written.sizeBytes) throw new Error(`stored ${sizeBytes} bytes of ${written.sizeBytes}`);
      const [ready] = await this.db
        .update(backups)
        .set({ status: 'READY', sizeBytes, sha256: written.sha256, finishedAt: this.now() })
        .where(and(eq(backups.id, row.id), eq(backups.status, 'RUNNING')))
        .returning();
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
    await this.db
      .update(backups)
      .set({ heartbeatAt: this.now() })
      .where(and(eq(backups.id, row.id), inArray(backups.status, ['PENDING', 'RUNNING'])));
    await this.renewClaim(row.gameId);
  }

  private async renewClaim(gameId: string): Promise<void> {
    await this.db
      .update(backupSettings)
      .set({ busyUntil: new Date(this.now().getTime() + this.options.claimMs) })
      .where(and(eq(backupSettings.gameId, gameId), sql`${backupSettings.busy} is not null`));
  }

  private async fail(row: BackupRow, error: ErrorKey): Promise<void> {
    await this.db.update(backups).set({ status: 'FAILED', error, finishedAt: this.now() }).where(eq(backups.id, row.id));
    await this.store.discard(row.objectKey).catch((err: unknown) => this.options.log.warn({ err, key: row.objectKey }, 'partial backup not deleted'));
  }

  /**
   * Backups left PENDING or RUNNING by a process that died (their heartbeat silent for a minute)
   * end FAILED, their partial objects deleted; restores it left half done are resumed; uploads it
   * left are deleted. Run at start and with the nightly rounds.
   */
  async sweep(): Promise<number> {
    const stale = await this.db
      .select()
      .from(backups)
      .where(and(inArray(backups.status, ['PENDING', 'RUNNING']), lt(backups.heartbeatAt, new Date(this.now().getTime() - this.options.claimMs))));
    for (const row of stale) {
      const [failed] = await this.db
        .update(backups)
        .set({ status: 'FAILED', error: 'backups.interrupted', finishedAt: this.now() })
        .where(and(eq(backups.id, row.id), inArray(backups.status, ['PENDING', 'RUNNING'])))
        .returning();
      // What the dead writer left (a temp file as big as what it wrote, a multipart upload) goes too:
      // no quota counts it, so it would stay for ever.
      if (failed) await this.store.discard(row.objectKey).catch((err: unknown) => this.options.log.warn({ err, key: row.objectKey }, 'partial backup not deleted'));
    }
    await this.resumeRestores();
    await this.freeLapsedClaims();
    return stale.length;
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
  private async overQuota(world: GameWorld, keep: string[], incoming?: number): Promise<BackupRow[]> {
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

  private async remove(ownerId: string, row: BackupRow): Promise<void> {
    await this.store.delete(row.objectKey);
    await this.db.delete(backups).where(eq(backups.id, row.id));
    await this.changed(ownerId, row.gameId, row.id, 'deleted');
  }

  /**
   * Pins, unpins or notes a backup, as `as` (the caller's level on the game; docs/product.md,
   * "Backups"): only the owner unpins, since an unpinned backup may be pruned. Pinning beyond the
   * package's quota is refused (409): counted and written under the lock of the game's settings row,
   * so two pins at once never both take the last place.
   */
  async update(ownerId: string | null, gameId: string, backupId: string, patch: BackupPatch, as: GameAccessLevel, locale: Locale): Promise<Backup> {
    const { world, row } = await this.row(ownerId, gameId, backupId);
    if (patch.pinned === false && row.pinned && !mayRemove(as)) throw forbidden('backups.ownerUnpins');
    const { backupsKept } = await this.catalogue.backupQuota(world.packageId);
    const updated = await this.db.transaction(async (tx) => {
      if (patch.pinned) {
        // The game's row of backup settings (made if missing) is the lock every pin of the game queues on.
        await tx.insert(backupSettings).values({ gameId }).onConflictDoNothing();
        await tx.select({ gameId: backupSettings.gameId }).from(backupSettings).where(eq(backupSettings.gameId, gameId)).for('update');
        const [pinned] = await tx
          .select({ n: count() })
          .from(backups)
          .where(and(eq(backups.gameId, gameId), eq(backups.pinned, true), ne(backups.id, backupId)));
        if (pinned!.n >= backupsKept) throw conflict('backups.pinQuota', { kept: backupsKept });
      }
      const [done] = await tx
        .update(backups)
        .set({ ...(patch.pinned === undefined ? {} : { pinned: patch.pinned }), ...(patch.note === undefined ? {} : { note: patch.note }) })
        .where(eq(backups.id, backupId))
        .returning();
      return done;
    });
    // Deleted meanwhile.
    if (!updated) throw notFound('backup');
    await this.changed(world.ownerId, world.id, backupId);
    return (await this.views([updated], locale))[0]!;
  }

  /** Deletes a finished backup and its archive (the owner's alone: its route needs OWNER); 409 while it runs. */
  async delete(ownerId: string | null, gameId: string, backupId: string): Promise<void> {
    const { world, row } = await this.row(ownerId, gameId, backupId);
    if (row.status === 'PENDING' || row.status === 'RUNNING') throw conflict('backups.running');
    await this.remove(world.ownerId, row);
  }

  /**
   * Puts a backup back (202): an automatic backup of the current world first, then the server
   * stopped, the archive unpacked into a staging folder and checked, swapped in, and the server
   * started again if it was running. A failure at any step leaves the current world as it was.
   */
  async restore(ownerId: string | null, gameId: string, backupId: string, locale: Locale): Promise<Backup> {
    const { world, row } = await this.row(ownerId, gameId, backupId);
    if (row.status !== 'READY') throw conflict('backups.notReady', { status: row.status });
    if (world.worldDeleted) throw conflict('backups.worldDeleted');
    if (!(await this.claim(gameId, 'RESTORE'))) throw conflict('backups.busy');
    this.track(this.putBack(world, row, 'beforeRestore').finally(() => this.release(gameId)));
    return (await this.views([row], locale))[0]!;
  }

  /**
   * Puts a stored archive back (a backup, or an uploaded world) and tells the owner how it went.
   * What it puts back, and whether the server is to run afterwards, is written on the game's
   * `backup_settings` first and cleared at the end: a process dying half-way leaves it, and the
   * sweep resumes it (`resumed`, with the `restart` recorded).
   */
  private async putBack(world: GameWorld, source: Pick<BackupRow, 'id' | 'objectKey' | 'createdAt'>, reason: BackupReason, resumed?: { restart: boolean }): Promise<void> {
    const link = `/dashboard/game/${world.id}/backups`;
    const beat = setInterval(() => void this.renewClaim(world.id).catch(() => {}), this.heartbeatMs);
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
      await this.worlds.whileStopped(
        world.id,
        async (stopped) => {
          const location = await this.store.readLocation(source.objectKey, WRITE_LOCATION_SEC);
          await this.driver.restore(stopped.spec, location, backupsMaxMb * MB);
        },
        { restart },
      );
      const key = resumed ? 'backup.restoreResumed' : 'backup.restored';
      await this.notifications.notify(world.ownerId, { key, params: { name: world.name, at: source.createdAt.toISOString() }, link });
    } catch (err) {
      this.options.log.warn({ err, gameId: world.id, backupId: source.id }, 'restore failed');
      // A resumed restore finds the server stopped by the process that died: it runs again if it ran.
      if (restart) await this.worlds.startAgain(world.id).catch((e: unknown) => this.options.log.warn({ err: e, gameId: world.id }, 'server not started again'));
      await this.notifications.notify(world.ownerId, { key: 'backup.restoreFailed', params: { name: world.name }, link });
    } finally {
      clearInterval(beat);
      await this.db.update(backupSettings).set({ restoreFrom: null, restoreAt: null, restoreRestart: null }).where(eq(backupSettings.gameId, world.id));
    }
  }

  /**
   * Restores a process left half done when it died (its claim lapsed, what it put back still
   * written): taken again from the start, on one replica (the claim taken in the same write), the
   * server started again afterwards if it ran, and the owner told. Run by the sweep.
   */
  private async resumeRestores(): Promise<number> {
    const now = this.now();
    const lapsed = or(isNull(backupSettings.busyUntil), lt(backupSettings.busyUntil, now));
    const orphans = await this.db
      .select()
      .from(backupSettings)
      .where(and(isNotNull(backupSettings.restoreFrom), lapsed));
    let resumed = 0;
    for (const row of orphans) {
      const [taken] = await this.db
        .update(backupSettings)
        .set({ busy: 'RESTORE', busyUntil: new Date(now.getTime() + this.options.claimMs) })
        .where(and(eq(backupSettings.gameId, row.gameId), eq(backupSettings.restoreFrom, row.restoreFrom!), lapsed))
        .returning();
      if (!taken) continue;
      const world = await this.worlds.of(null, row.gameId).catch(() => undefined);
      if (!world) {
        await this.release(row.gameId);
        continue;
      }
      const key = row.restoreFrom!;
      const upload = key.startsWith(`games/${world.id}/uploads/`);
      // The backup's own id, so the safety backup taken again does not prune the one it restores.
      const [stored] = upload ? [] : await this.db.select({ id: backups.id }).from(backups).where(eq(backups.objectKey, key));
      const source = { id: stored?.id ?? key, objectKey: key, createdAt: row.restoreAt ?? now };
      this.track(
        this.putBack(world, source, upload ? 'beforeUpload' : 'beforeRestore', { restart: row.restoreRestart ?? false })
          // An uploaded world is kept only for its restore.
          .finally(() => (upload ? this.store.delete(key) : undefined))
          .finally(() => this.release(world.id)),
      );
      resumed++;
    }
    return resumed;
  }

  /**
   * Replaces the game's world by an uploaded .zip (202). The upload is written to a temporary file
   * and its directory read before anything changes: a file that is no zip, too large for the
   * package, a zip bomb, unsafe names, links or no level.dat are refused (413, 422) and nothing
   * is kept. An accepted world is stored, then put in place as a restore is: after an automatic
   * backup of the current world, with the server stopped, checked again once unpacked.
   */
  async uploadWorld(ownerId: string, gameId: string, body: NodeJS.ReadableStream, declaredBytes: number | undefined): Promise<void> {
    const world = await this.worlds.of(ownerId, gameId);
    if (world.worldDeleted) throw conflict('backups.worldDeleted');
    const { backupsMaxMb } = await this.catalogue.backupQuota(world.packageId);
    const maxBytes = backupsMaxMb * MB;
    const tooLarge = () => new HttpProblem(413, 'archive.too-large', { maxMb: backupsMaxMb });
    if (declaredBytes !== undefined && declaredBytes > maxBytes) throw tooLarge();
    if (!(await this.claim(gameId, 'RESTORE'))) throw conflict('backups.busy');
    // A slow connection may stream for many minutes: the claim lives as long as the upload does.
    const hold = this.holdClaim(gameId);
    const { temp, key } = this.upload(gameId);
    try {
      await fs.promises.mkdir(this.options.uploadDir, { recursive: true });
      // What an upload of this game killed half-way left, if the sweep has not been by since.
      await this.dropUpload(gameId);
      let bytes = 0;
      const bounded = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          if (bytes > maxBytes) return done(tooLarge());
          hold.touch().then(
            () => done(null, chunk),
            (err: unknown) => done(err instanceof Error ? err : new Error(String(err))),
          );
        },
      });
      await pipeline(body, bounded, fs.createWriteStream(temp, { flags: 'wx' }));
      try {
        await inspectArchive(temp, { maxArchiveBytes: maxBytes });
      } catch (err) {
        if (!(err instanceof WorldArchiveError)) throw err;
        if (err.code === 'archive.too-large') throw tooLarge();
        if (err.code === 'archive.unpacked-too-large') throw new HttpProblem(422, 'archive.unpacked-too-large', { maxMb: Math.floor(maxUnpackedFor(maxBytes) / MB) });
        if (err.code === 'archive.ratio') throw new HttpProblem(422, 'archive.ratio', { ratio: MAX_UNPACK_RATIO });
        throw new HttpProblem(422, archiveKey(err.code));
      }
      await this.store.put(key, fs.createReadStream(temp));
    } catch (err) {
      hold.stop();
      await this.release(gameId);
      throw err;
    } finally {
      await fs.promises.rm(temp, { force: true });
    }
    this.track(
      this.putBack(world, { objectKey: key, createdAt: this.now(), id: key }, 'beforeUpload')
        .finally(() => this.store.delete(key))
        .finally(() => hold.stop())
        .finally(() => this.release(gameId)),
    );
  }

  /**
   * Where a game's world upload is kept until it is restored: one per game, since the game's claim
   * allows one at a time, so what a killed upload left is found again by the game alone.
   */
  private upload(gameId: string): { temp: string; key: string } {
    return { temp: path.join(this.options.uploadDir, `${gameId}.zip`), key: `games/${gameId}/uploads/world.zip` };
  }

  /** Deletes a game's upload: the local copy and the stored one, with what an unfinished write of either left. */
  private async dropUpload(gameId: string): Promise<void> {
    const { temp, key } = this.upload(gameId);
    await fs.promises.rm(temp, { force: true });
    await this.store.discard(key);
  }

  /**
   * Claims left by a process that died (an upload, a restore or a backup cut off, the claim never
   * released) with no restore to resume: the claim is taken, the game's upload leftovers deleted
   * (no quota counts them), and the game freed.
   */
  private async freeLapsedClaims(): Promise<number> {
    const lapsed = await this.db
      .select({ gameId: backupSettings.gameId, busy: backupSettings.busy })
      .from(backupSettings)
      .where(and(isNotNull(backupSettings.busy), lt(backupSettings.busyUntil, new Date(this.now().getTime() - this.options.claimMs)), isNull(backupSettings.restoreFrom)));
    let freed = 0;
    for (const { gameId, busy } of lapsed) {
      if (!(await this.claim(gameId, busy!))) continue;
      try {
        await this.dropUpload(gameId);
        freed++;
      } catch (err) {
        this.options.log.warn({ err, gameId }, 'upload leftovers not deleted');
      } finally {
        await this.release(gameId);
      }
    }
    return freed;
  }

  /** A link that downloads the backup without a token, for 10 minutes, or until `by` loses their access. */
  async link(ownerId: string | null, gameId: string, backupId: string, by: string | null = null): Promise<BackupLink> {
    const { row } = await this.row(ownerId, gameId, backupId);
    if (row.status !== 'READY') throw conflict('backups.notReady', { status: row.status });
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.now().getTime() + LINK_MS);
    await this.db.delete(backupLinks).where(lt(backupLinks.expiresAt, this.now()));
    await this.db.insert(backupLinks).values({ tokenHash: hashOf(token), backupId, expiresAt, createdBy: by });
    return { url: `${this.options.publicUrl}/v1/backup-download/${token}`, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Some people's access ended (SharingService.ended, in its transaction): the download links they
   * made of games where they are no longer co-admins stop working now rather than at expiry.
   */
  private async linksLeft(scope: AccessScope, executor: Executor, holds: LevelCheck): Promise<void> {
    if (!scope.userIds?.length) return;
    const rows = await executor
      .select({ tokenHash: backupLinks.tokenHash, createdBy: backupLinks.createdBy, gameId: backups.gameId })
      .from(backupLinks)
      .innerJoin(backups, eq(backups.id, backupLinks.backupId))
      .where(and(inArray(backupLinks.createdBy, scope.userIds), ...(scope.gameIds ? [inArray(backups.gameId, scope.gameIds)] : [])));
    const gone: string[] = [];
    for (const row of rows) if (!(await holds(row.createdBy!, row.gameId, 'COADMIN'))) gone.push(row.tokenHash);
    if (gone.length) await executor.delete(backupLinks).where(inArray(backupLinks.tokenHash, gone));
  }

  /**
   * What a download link gives: the archive's key, size and file name, or a presigned URL when
   * the store serves it itself (S3). 404 for an unknown or expired link.
   */
  async download(token: string, timeZone = 'UTC'): Promise<{ key: string; sizeBytes: number; filename: string; redirect: string | null }> {
    // The link's own words (`?tz=`), checked before anything is read: a bad zone names its field.
    if (!validTimeZone(timeZone)) throw new HttpProblem(400, 'request.invalidField', {}, { errors: [{ field: 'tz', key: 'backups.timeZone', params: { timeZone } }] });
    const [found] = await this.db
      .select({ backup: backups })
      .from(backupLinks)
      .innerJoin(backups, eq(backups.id, backupLinks.backupId))
      .where(and(eq(backupLinks.tokenHash, hashOf(token)), gt(backupLinks.expiresAt, this.now()), eq(backups.status, 'READY')));
    if (!found) throw notFound('backupLink');
    const { backup } = found;
    const world = await this.worlds.of(null, backup.gameId);
    const filename = `${slug(world.name)}-${wallClockStamp(backup.createdAt, timeZone)}.zip`;
    return { key: backup.objectKey, sizeBytes: backup.sizeBytes ?? 0, filename, redirect: await this.store.downloadUrl(backup.objectKey, filename, LINK_MS / 1000) };
  }

  /** Streams a stored archive, whole or a byte range of it. */
  read(key: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream> {
    return this.store.read(key, range);
  }

  async settings(ownerId: string, gameId: string): Promise<BackupSettings> {
    await this.worlds.of(ownerId, gameId);
    const [row] = await this.db.select().from(backupSettings).where(eq(backupSettings.gameId, gameId));
    return { nightly: row?.nightly ?? true, hour: row?.hour ?? 4, timeZone: row?.timeZone ?? 'Europe/Paris' };
  }

  async saveSettings(ownerId: string, gameId: string, input: BackupSettings): Promise<BackupSettings> {
    await this.worlds.of(ownerId, gameId);
    if (!validTimeZone(input.timeZone)) throw new HttpProblem(400, 'request.invalidField', {}, { errors: [{ field: '/timeZone', key: 'backups.timeZone', params: { timeZone: input.timeZone } }] });
    const next = nextNightly(this.now(), input.hour, input.timeZone);
    const values = { nightly: input.nightly, hour: input.hour, timeZone: input.timeZone, nextNightlyAt: next, updatedAt: this.now() };
    await this.db
      .insert(backupSettings)
      .values({ gameId, ...values })
      .onConflictDoUpdate({ target: backupSettings.gameId, set: values });
    return { nightly: input.nightly, hour: input.hour, timeZone: input.timeZone };
  }

  /**
   * Claims the game for one backup or restore; false while another holds it. With `expiry`, the
   * backup of that expiry, which the same write records: false when it was taken already.
   */
  private async claim(gameId: string, work: 'BACKUP' | 'RESTORE', expiry?: Date): Promise<boolean> {
    const now = this.now();
    const until = new Date(now.getTime() + this.options.claimMs);
    const set = { busy: work, busyUntil: until, ...(expiry ? { expiryBackupFor: expiry } : {}) };
    const free = or(isNull(backupSettings.busy), lt(backupSettings.busyUntil, now));
    const rows = await this.db
      .insert(backupSettings)
      .values({ gameId, ...set })
      .onConflictDoUpdate({
        target: backupSettings.gameId,
        set,
        setWhere: expiry ? and(free, or(isNull(backupSettings.expiryBackupFor), ne(backupSettings.expiryBackupFor, expiry))) : free,
      })
      .returning({ gameId: backupSettings.gameId });
    return rows.length > 0;
  }

  /**
   * Keeps a claim alive while its work lives: renewed every sixth of the claim, and by `touch` whenever
   * the clock moved on as much since (a streaming upload touches it with each part it receives, so
   * the claim never lapses under a body still coming). `stop` once the work ended.
   */
  private holdClaim(gameId: string): { touch(): Promise<void>; stop(): void } {
    let renewed = this.now().getTime();
    const renew = async () => {
      renewed = this.now().getTime();
      await this.renewClaim(gameId);
    };
    const timer = setInterval(() => void renew().catch(() => {}), this.heartbeatMs);
    return {
      touch: async () => {
        if (this.now().getTime() - renewed >= this.heartbeatMs) await renew();
      },
      stop: () => clearInterval(timer),
    };
  }

  private async release(gameId: string): Promise<void> {
    await this.db.update(backupSettings).set({ busy: null, busyUntil: null }).where(eq(backupSettings.gameId, gameId));
  }

  /**
   * Tells the owner's open pages, and those of everyone the game is shared with, that a backup
   * changed: a co-admin watching the list sees it run and end as the owner does.
   */
  private async changed(ownerId: string, gameId: string, id: string, type: 'created' | 'updated' | 'deleted' = 'updated'): Promise<void> {
    const shared = await this.audience(gameId);
    await this.notifications.changed([ownerId, ...shared], { resource: 'backups', ids: [id], type });
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((err: unknown) => this.options.log.error({ err }, 'backup work failed'));
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  /** Waits for the backups and restores this process runs (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /**
   * Rounds every minute, or once a claim's length when claims are shorter, until `stop`: the
   * nightly backups, the expiries' backups, the backups and claims whose time is over.
   */
  start(): void {
    this.loop ??= new RoundLoop(
      () => this.nightlyRound().then(() => this.expiryRound()),
      () => Math.min(ROUND_MS, this.options.claimMs),
      (err) => this.options.log.error({ err }, 'backup round failed'),
    );
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
  }

  /** A new game's nightly backup, at the default hour until its owner picks one. */
  private async initSettings(gameId: string): Promise<void> {
    const defaults = { hour: 4, timeZone: 'Europe/Paris' };
    await this.db
      .insert(backupSettings)
      .values({ gameId, ...defaults, nextNightlyAt: nextNightly(this.now(), defaults.hour, defaults.timeZone) })
      .onConflictDoNothing();
  }

  /**
   * One round of nightly backups: the games whose time has come, each taken under `FOR UPDATE SKIP
   * LOCKED` and moved to its next night in the same write, so a round on another replica or the
   * next one never takes it twice. A game never started has no world to keep, an expired one no
   * change since its last backup: both are skipped. Waits for the backups it started.
   */
  async nightlyRound(): Promise<number> {
    const now = this.now();
    await this.sweep();
    const due = await this.db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(backupSettings)
        .where(and(eq(backupSettings.nightly, true), or(isNull(backupSettings.nextNightlyAt), lte(backupSettings.nextNightlyAt, now))))
        .limit(50)
        .for('update', { skipLocked: true });
      for (const row of rows) {
        await tx
          .update(backupSettings)
          .set({ nextNightlyAt: nextNightly(now, row.hour, row.timeZone) })
          .where(eq(backupSettings.gameId, row.gameId));
      }
      // A row without a time yet (a game older than nightly backups) only gets its time.
      return rows.filter((row) => row.nextNightlyAt !== null);
    });
    let started = 0;
    for (const row of due) {
      const world = await this.worlds.of(null, row.gameId).catch(() => undefined);
      if (!world || world.status === 'CREATED' || world.status === 'EXPIRED') continue;
      if (!(await this.claim(world.id, 'BACKUP'))) continue;
      const backup = await this.insert(world, { kind: 'NIGHTLY', reason: 'nightly', by: null });
      this.track(this.take(world, backup).finally(() => this.release(world.id)));
      started++;
    }
    await this.idle();
    return started;
  }

  /**
   * One round for expired games: each game an expiry stopped in the last week gets one automatic
   * backup of its stopped world (so it holds the world's last save), on one replica, once per
   * expiry; and the backups kept past a world's deletion go once their time is over. Waits for
   * the backups it started.
   */
  async expiryRound(): Promise<number> {
    const now = this.now();
    const expired = await this.worlds.expiredSince(new Date(now.getTime() - EXPIRY_WINDOW_MS));
    const taken = new Map<string, number>();
    for (let i = 0; i < expired.length; i += 500) {
      const ids = expired.slice(i, i + 500).map((game) => game.id);
      const rows = await this.db.select({ gameId: backupSettings.gameId, at: backupSettings.expiryBackupFor }).from(backupSettings).where(inArray(backupSettings.gameId, ids));
      for (const row of rows) if (row.at) taken.set(row.gameId, row.at.getTime());
    }
    let started = 0;
    for (const game of expired.filter((g) => taken.get(g.id) !== g.expiredAt.getTime()).slice(0, 50)) {
      if (!(await this.claim(game.id, 'BACKUP', game.expiredAt))) continue;
      try {
        const world = await this.worlds.of(null, game.id);
        const backup = await this.insert(world, { kind: 'AUTOMATIC', reason: 'expiry', by: null });
        this.track(this.take(world, backup).finally(() => this.release(game.id)));
        started++;
      } catch (err) {
        await this.release(game.id);
        throw err;
      }
    }
    const over = await this.db.select().from(backups).where(lte(backups.expiresAt, now));
    for (const row of over) {
      const world = await this.worlds.of(null, row.gameId);
      await this.remove(world.ownerId, row);
    }
    await this.idle();
    return started;
  }

  /**
   * Before an expired game's world is deleted: its newest finished backup stays until `until`
   * (GAME_RETENTION_DAYS more, for its owner to download), the others go now. Idempotent, so a
   * deletion tried again does it again harmlessly.
   */
  async keepLast(gameId: string, until: Date): Promise<void> {
    const world = await this.worlds.of(null, gameId);
    const rows = await this.db
      .select()
      .from(backups)
      .where(and(eq(backups.gameId, gameId), inArray(backups.status, ['READY', 'FAILED'])))
      .orderBy(desc(backups.createdAt), desc(backups.id));
    const last = rows.find((row) => row.status === 'READY');
    if (last && !last.expiresAt) {
      await this.db.update(backups).set({ expiresAt: until }).where(eq(backups.id, last.id));
      await this.changed(world.ownerId, world.id, last.id);
    }
    for (const row of rows) if (row.id !== last?.id) await this.remove(world.ownerId, row);
  }
}

/** The error key of an archive's refusal: `archive.not-zip`, or `archive.corrupt` for a damaged world. */
function archiveKey(code: WorldArchiveCode): ErrorKey {
  return code === 'world.corrupt' || code === 'transfer.failed' ? 'archive.corrupt' : code;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A file name from a game's name: letters, digits and dashes. */
/** An instant as the downloader's clock read it, for a file name: 2026-11-24-22-30. */
function wallClockStamp(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}-${parts.hour}-${parts.minute}`;
}

function slug(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'world'
  );
}
