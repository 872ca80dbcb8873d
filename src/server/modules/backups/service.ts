import { and, count, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { backups, backupSettings } from '../../db/schema/backups.ts';
import { conflict, forbidden, HttpProblem, notFound, type ErrorKey } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import { renderProblem } from '../../lib/problems.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { GameWorld, GameWorlds } from '../games/world.ts';
import type { UsersService } from '../users/service.ts';
import type { Backup, BackupLink, BackupPatch, BackupPrune, BackupQuota, BackupSettings, KeptBackup } from '../../../contract/backups.ts';
import type { GameAccessLevel } from '../../../contract/sharing.ts';
import type { Locale } from '../../../contract/messages.ts';
import type { Clock } from '../games/runtime.ts';
import { nextNightly, validTimeZone } from './nightly.ts';
import type { EventBus } from '../../events.ts';
import type { GameLock } from '../games/lock.ts';
import type { BackupLinks } from './links.ts';
import type { WorldUploads } from './uploads.ts';
import type { BackupRow, BackupWork, NewBackup } from './work.ts';
import type { GameAccessCheck } from '../sharing/access.ts';

/**
 * Who may make a backup go (docs/product.md, "Backups"): unpin it, which lets the quota prune it,
 * or delete it (its route needs OWNER). The owner alone; a co-admin takes, pins, restores and downloads.
 */
const mayRemove = (as: GameAccessLevel) => as === 'OWNER';

/**
 * The backups' calls (docs/architecture.md, "Backups"): a game's backups listed, taken, pinned,
 * deleted and restored, its nightly settings, its download links (`links`) and world uploads
 * (`uploads`). The work itself is in work.ts, under the game's lock (games/lock.ts): at most one
 * backup or restore works on a game at a time, on any replica. The rounds are in rounds.ts.
 */
export class BackupsService {
  private readonly db: Db;
  private readonly worlds: GameWorlds;
  private readonly catalogue: CatalogueService;
  private readonly users: UsersService;
  private readonly lock: GameLock;
  private readonly work: BackupWork;
  readonly links: BackupLinks;
  readonly uploads: WorldUploads;
  private readonly clock: Clock;

  constructor(
    db: Db,
    deps: { worlds: GameWorlds; catalogue: CatalogueService; users: UsersService; lock: GameLock; work: BackupWork; links: BackupLinks; uploads: WorldUploads; events: EventBus },
    options: { clock: Clock },
  ) {
    this.db = db;
    this.worlds = deps.worlds;
    this.catalogue = deps.catalogue;
    this.users = deps.users;
    this.lock = deps.lock;
    this.work = deps.work;
    this.links = deps.links;
    this.uploads = deps.uploads;
    this.clock = options.clock;
    deps.events.on('games.created', ({ gameId }) => this.initSettings(gameId));
    // A deleted game takes no more nightly backups: the rounds take its last one.
    deps.events.on('games.deleted', async ({ tx, gameId }) => {
      await tx.update(backupSettings).set({ nightly: false, nextNightlyAt: null }).where(eq(backupSettings.gameId, gameId));
    });
  }

  private now(): Date {
    return this.clock();
  }

  async list(gameId: string, window: Window, locale: Locale) {
    await this.worlds.of(gameId);
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
    const world = await this.worlds.of(gameId);
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
  async nextPrune(gameId: string, restoring: string | undefined, locale: Locale): Promise<BackupPrune> {
    const world = await this.worlds.of(gameId);
    const [newest] = await this.db
      .select({ sizeBytes: backups.sizeBytes })
      .from(backups)
      .where(and(eq(backups.gameId, gameId), eq(backups.status, 'READY')))
      .orderBy(desc(backups.createdAt), desc(backups.id))
      .limit(1);
    const doomed = await this.work.overQuota(world, restoring ? [restoring] : [], newest?.sizeBytes ?? 0);
    return { quota: await this.quotaOf(gameId), data: await this.views(doomed, locale) };
  }

  /**
   * The backups another package's quota would delete now (a change of offer, money/renewals/offer.ts):
   * the pruning's own choice, so the owner confirms exactly what a prune would take.
   */
  async prunedBy(gameId: string, packageId: string, locale: Locale): Promise<Backup[]> {
    const world = await this.worlds.of(gameId);
    return this.views(await this.work.overQuota({ ...world, packageId }, []), locale);
  }

  /**
   * Once the game has its new package: deletes the backups beyond its quota that the owner named, and
   * no other (one named that is no longer beyond it stays). Answers how many went.
   */
  async pruneConfirmed(gameId: string, confirmed: string[]): Promise<number> {
    const world = await this.worlds.of(gameId);
    const doomed = (await this.work.overQuota(world, [])).filter((row) => confirmed.includes(row.id));
    for (const row of doomed) await this.work.remove(world.ownerId, row);
    return doomed.length;
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

  private async row(gameId: string, backupId: string): Promise<{ world: GameWorld; row: BackupRow }> {
    const world = await this.worlds.of(gameId);
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
  async create(gameId: string, input: NewBackup, locale: Locale): Promise<Backup> {
    const world = await this.worlds.of(gameId);
    if (world.worldDeleted) throw conflict('backups.worldDeleted');
    if (!(await this.lock.take(gameId, 'BACKUP'))) throw conflict('backups.busy');
    let row: BackupRow;
    try {
      row = await this.work.insert(world, input);
    } catch (err) {
      await this.lock.release(gameId);
      throw err;
    }
    this.work.takeInBackground(world, row);
    return this.view(row, locale, null);
  }

  /**
   * An automatic backup of the world before a change that could spoil it (a version change),
   * waited for: resolves with why it failed ('backups.noWorld' for a world never started), or null
   * once READY. 409 while another backup or a restore runs.
   */
  async backUpBefore(gameId: string): Promise<ErrorKey | null> {
    const world = await this.worlds.of(gameId);
    if (!(await this.lock.take(gameId, 'BACKUP'))) throw conflict('backups.busy');
    try {
      return await this.work.take(world, await this.work.insert(world, { kind: 'AUTOMATIC', reason: 'beforeVersionChange', by: null }));
    } finally {
      await this.lock.release(gameId);
    }
  }

  /**
   * Pins, unpins or notes a backup, as `as` (the caller's level on the game; docs/product.md,
   * "Backups"): only the owner unpins, since an unpinned backup may be pruned. Pinning beyond the
   * package's quota is refused (409): counted and written under the lock of the game's settings row,
   * so two pins at once never both take the last place.
   */
  async update(game: GameAccessCheck, backupId: string, patch: BackupPatch, locale: Locale): Promise<Backup> {
    const { gameId } = game;
    const { world, row } = await this.row(gameId, backupId);
    if (patch.pinned === false && row.pinned && !mayRemove(game.level)) throw forbidden('backups.ownerUnpins');
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
    await this.work.changed(world.ownerId, world.id, backupId);
    return (await this.views([updated], locale))[0]!;
  }

  /** Deletes a finished backup and its archive (the owner's alone: its route needs OWNER); 409 while it runs. */
  async delete(gameId: string, backupId: string): Promise<void> {
    const { world, row } = await this.row(gameId, backupId);
    if (row.status === 'PENDING' || row.status === 'RUNNING') throw conflict('backups.running');
    await this.work.remove(world.ownerId, row);
  }

  /**
   * Puts a backup back (202): an automatic backup of the current world first, then the server
   * stopped, the archive unpacked into a staging folder and checked, swapped in, and the server
   * started again if it was running. A failure at any step leaves the current world as it was.
   */
  async restore(gameId: string, backupId: string, locale: Locale): Promise<Backup> {
    const { world, row } = await this.row(gameId, backupId);
    if (row.status !== 'READY') throw conflict('backups.notReady', { status: row.status });
    if (world.worldDeleted) throw conflict('backups.worldDeleted');
    if (!(await this.lock.take(gameId, 'RESTORE'))) throw conflict('backups.busy');
    this.work.track(this.work.putBack(world, row, 'beforeRestore').finally(() => this.lock.release(gameId)));
    return (await this.views([row], locale))[0]!;
  }

  async settings(gameId: string): Promise<BackupSettings> {
    await this.worlds.of(gameId);
    const [row] = await this.db.select().from(backupSettings).where(eq(backupSettings.gameId, gameId));
    return { nightly: row?.nightly ?? true, hour: row?.hour ?? 4, timeZone: row?.timeZone ?? 'Europe/Paris' };
  }

  async saveSettings(gameId: string, input: BackupSettings): Promise<BackupSettings> {
    await this.worlds.of(gameId);
    if (!validTimeZone(input.timeZone)) throw new HttpProblem(400, 'request.invalidField', {}, { errors: [{ field: '/timeZone', key: 'backups.timeZone', params: { timeZone: input.timeZone } }] });
    const next = nextNightly(this.now(), input.hour, input.timeZone);
    const values = { nightly: input.nightly, hour: input.hour, timeZone: input.timeZone, nextNightlyAt: next, updatedAt: this.now() };
    await this.db
      .insert(backupSettings)
      .values({ gameId, ...values })
      .onConflictDoUpdate({ target: backupSettings.gameId, set: values });
    return { nightly: input.nightly, hour: input.hour, timeZone: input.timeZone };
  }

  /** A new game's nightly backup, at the default hour until its owner picks one. */
  private async initSettings(gameId: string): Promise<void> {
    const defaults = { hour: 4, timeZone: 'Europe/Paris' };
    await this.db
      .insert(backupSettings)
      .values({ gameId, ...defaults, nextNightlyAt: nextNightly(this.now(), defaults.hour, defaults.timeZone) })
      .onConflictDoNothing();
  }

  /** Before an expired game's world is deleted: its last backup stays until `until` (`BackupWork.keepLast`). */
  async keepLast(gameId: string, until: Date): Promise<void> {
    await this.work.keepLast(await this.worlds.of(gameId), until);
  }

  /** The last backups of the owner's deleted games, kept until their `expiresAt`, newest first. */
  async kept(ownerId: string): Promise<KeptBackup[]> {
    const deleted = await this.worlds.deletedOf(ownerId);
    if (deleted.size === 0) return [];
    const rows = await this.db
      .select()
      .from(backups)
      .where(and(inArray(backups.gameId, [...deleted.keys()]), eq(backups.status, 'READY'), isNotNull(backups.expiresAt)))
      .orderBy(desc(backups.createdAt), desc(backups.id));
    return rows.map((row) => ({
      id: row.id,
      gameId: row.gameId,
      gameName: deleted.get(row.gameId)!,
      createdAt: row.createdAt.toISOString(),
      sizeBytes: row.sizeBytes,
      expiresAt: row.expiresAt!.toISOString(),
    }));
  }

  /** A download link to one of `kept` (404 for any other backup), for 10 minutes. */
  async keptLink(ownerId: string, backupId: string): Promise<BackupLink> {
    if (!(await this.kept(ownerId)).some((backup) => backup.id === backupId)) throw notFound('backup');
    // Made by no one: the deleted game has no access left to end.
    return this.links.create(backupId, null);
  }

  /** A link that downloads the backup without a token, for 10 minutes, or until `by` loses their access. */
  async link(gameId: string, backupId: string, by: string | null = null): Promise<BackupLink> {
    const { row } = await this.row(gameId, backupId);
    if (row.status !== 'READY') throw conflict('backups.notReady', { status: row.status });
    return this.links.create(backupId, by);
  }

  /** Waits for the backups and restores this process runs (shutdown, tests). */
  idle(): Promise<void> {
    return this.work.idle();
  }
}
