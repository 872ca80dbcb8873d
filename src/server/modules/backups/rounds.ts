import { and, eq, inArray, isNotNull, isNull, lt, lte, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { EventBus } from '../../events.ts';
import { backups, backupSettings } from '../../db/schema/backups.ts';
import { RoundLoop } from '../../lib/round-loop.ts';
import type { ObjectStore } from '../../storage/store.ts';
import type { GameWorlds } from '../games/world.ts';
import type { GameLock } from '../games/lock.ts';
import type { WorldUploads } from './uploads.ts';
import type { BackupWork, BackupWorkDeps } from './work.ts';
import { nextNightly } from './nightly.ts';

/** An expired game's backup is taken within this long of its expiry, or not at all. */
const EXPIRY_WINDOW_MS = 7 * 24 * 3600_000;
const DAY_MS = 24 * 3600_000;
/** The backup rounds' pace: a nightly backup starts within a minute of its hour. */
const ROUND_MS = 60_000;

/**
 * The backups' background rounds, on any number of replicas: nightly backups, expired games'
 * backups, and what a process that died left (backups cut off, restores half done, locks never
 * released). The calls are in service.ts.
 */
export class BackupRounds {
  private readonly db: Db;
  private readonly store: ObjectStore;
  private readonly worlds: GameWorlds;
  private readonly lock: GameLock;
  private readonly work: BackupWork;
  private readonly uploads: WorldUploads;
  private readonly options: Pick<BackupWorkDeps, 'clock' | 'log'> & { retentionDays: number };
  private loop: RoundLoop | undefined;

  constructor(
    db: Db,
    deps: { store: ObjectStore; worlds: GameWorlds; lock: GameLock; work: BackupWork; uploads: WorldUploads; events: EventBus },
    options: Pick<BackupWorkDeps, 'clock' | 'log'> & { retentionDays: number },
  ) {
    this.db = db;
    this.store = deps.store;
    this.worlds = deps.worlds;
    this.lock = deps.lock;
    this.work = deps.work;
    this.uploads = deps.uploads;
    this.options = options;
    // A deleted game's last backup is taken at once on the replica that deleted it, not up to a round later.
    deps.events.on('games.deletionCommitted', () => this.loop?.wake());
  }

  private now(): Date {
    return this.options.clock();
  }

  /**
   * Rounds every minute, or once a lock's length when locks are shorter, until `stop`: the
   * nightly backups, the expiries' backups, the backups and locks whose time is over.
   */
  start(): void {
    this.loop ??= new RoundLoop(
      () =>
        this.nightlyRound()
          .then(() => this.expiryRound())
          .then(() => this.deletionRound()),
      () => Math.min(ROUND_MS, this.lock.lockMs),
      (err) => this.options.log.error({ err }, 'backup round failed'),
    );
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
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
      .where(and(inArray(backups.status, ['PENDING', 'RUNNING']), lt(backups.heartbeatAt, new Date(this.now().getTime() - this.lock.lockMs))));
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
    await this.freeLapsedLocks();
    return stale.length;
  }

  /**
   * Restores a process left half done when it died (its game's lock lapsed, what it put back still
   * written): taken again from the start, on one replica (whichever takes the lock), the server
   * started again afterwards if it ran, and the owner told. Run by the sweep.
   */
  private async resumeRestores(): Promise<number> {
    const now = this.now();
    const orphans = await this.db.select().from(backupSettings).where(isNotNull(backupSettings.restoreFrom));
    let resumed = 0;
    for (const row of orphans) {
      if (!(await this.lock.take(row.gameId, 'RESTORE'))) continue;
      // Ended meanwhile (its process finished it and freed the game between the two reads).
      const [still] = await this.db
        .select({ gameId: backupSettings.gameId })
        .from(backupSettings)
        .where(and(eq(backupSettings.gameId, row.gameId), eq(backupSettings.restoreFrom, row.restoreFrom!)));
      const world = still ? await this.worlds.of(row.gameId).catch(() => undefined) : undefined;
      if (!world) {
        await this.lock.release(row.gameId);
        continue;
      }
      const key = row.restoreFrom!;
      const upload = key.startsWith(`games/${world.id}/uploads/`);
      // The backup's own id, so the safety backup taken again does not prune the one it restores.
      const [stored] = upload ? [] : await this.db.select({ id: backups.id }).from(backups).where(eq(backups.objectKey, key));
      const source = { id: stored?.id ?? key, objectKey: key, createdAt: row.restoreAt ?? now };
      this.work.track(
        this.work
          .putBack(world, source, upload ? 'beforeUpload' : 'beforeRestore', { restart: row.restoreRestart ?? false })
          // An uploaded world is kept only for its restore.
          .finally(() => (upload ? this.store.delete(key) : undefined))
          .finally(() => this.lock.release(world.id)),
      );
      resumed++;
    }
    return resumed;
  }

  /**
   * Locks left by a process that died (an upload, a restore or a backup cut off, the lock never
   * released) with no restore to resume: the lock is taken, the game's upload leftovers deleted
   * (no quota counts them), and the game freed.
   */
  private async freeLapsedLocks(): Promise<number> {
    const lapsed = await this.lock.lapsed(this.lock.lockMs);
    const restoring = new Set(
      lapsed.length === 0
        ? []
        : (
            await this.db
              .select({ gameId: backupSettings.gameId })
              .from(backupSettings)
              .where(
                and(
                  inArray(
                    backupSettings.gameId,
                    lapsed.map((l) => l.gameId),
                  ),
                  isNotNull(backupSettings.restoreFrom),
                ),
              )
          ).map((row) => row.gameId),
    );
    let freed = 0;
    for (const { gameId, work } of lapsed.filter((l) => !restoring.has(l.gameId))) {
      if (!(await this.lock.take(gameId, work))) continue;
      try {
        await this.uploads.drop(gameId);
        freed++;
      } catch (err) {
        this.options.log.warn({ err, gameId }, 'upload leftovers not deleted');
      } finally {
        await this.lock.release(gameId);
      }
    }
    return freed;
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
      const world = await this.worlds.of(row.gameId).catch(() => undefined);
      if (!world || world.status === 'CREATED' || world.status === 'EXPIRED') continue;
      if (!(await this.lock.take(world.id, 'BACKUP'))) continue;
      this.work.takeInBackground(world, await this.work.insert(world, { kind: 'NIGHTLY', reason: 'nightly', by: null }));
      started++;
    }
    await this.work.idle();
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
      if (!(await this.lock.take(game.id, 'BACKUP'))) continue;
      try {
        // One backup per expiry: recorded under the lock, so of two rounds at once only one takes it.
        if (!(await this.recordExpiryBackup(game.id, game.expiredAt))) {
          await this.lock.release(game.id);
          continue;
        }
        const world = await this.worlds.of(game.id);
        this.work.takeInBackground(world, await this.work.insert(world, { kind: 'AUTOMATIC', reason: 'expiry', by: null }));
        started++;
      } catch (err) {
        await this.lock.release(game.id);
        throw err;
      }
    }
    const over = await this.db.select().from(backups).where(lte(backups.expiresAt, now));
    for (const row of over) {
      const world = await this.worlds.of(row.gameId);
      await this.work.remove(world.ownerId, row);
    }
    await this.work.idle();
    return started;
  }

  /**
   * One round for deleted games (games/deletion.ts hid them in one write): each one's server
   * stopped, one last backup taken and kept GAME_RETENTION_DAYS from the deletion (the others
   * gone), then its world and address freed. Under the game's lock, so on one replica at a time; a
   * process killed half-way leaves the world and the lock, which lapses, and a later round does it
   * all again. A backup that fails leaves the world to the next round: it is never deleted without
   * its last backup, unless it never had a world to keep (or the driver cannot back one up).
   */
  async deletionRound(): Promise<number> {
    let finished = 0;
    for (const game of await this.worlds.deleting(20)) {
      if (!(await this.lock.take(game.id, 'BACKUP'))) continue;
      try {
        const world = await this.worlds.stopped(game.id);
        const failed = await this.work.take(world, await this.work.insert(world, { kind: 'AUTOMATIC', reason: 'deletion', by: null }));
        if (failed && failed !== 'backups.noWorld' && failed !== 'backups.unsupported') continue;
        await this.work.keepLast(world, new Date(game.deletedAt.getTime() + this.options.retentionDays * DAY_MS));
        await this.worlds.removeWorld(game.id);
        finished++;
      } catch (err) {
        this.options.log.error({ err, gameId: game.id }, 'finishing a deletion failed; the next round tries again');
      } finally {
        await this.lock.release(game.id);
      }
    }
    return finished;
  }

  /** Records that the backup of the game's expiry `expiry` is taken; false when it was already. */
  private async recordExpiryBackup(gameId: string, expiry: Date): Promise<boolean> {
    const rows = await this.db
      .insert(backupSettings)
      .values({ gameId, expiryBackupFor: expiry })
      .onConflictDoUpdate({
        target: backupSettings.gameId,
        set: { expiryBackupFor: expiry },
        setWhere: or(isNull(backupSettings.expiryBackupFor), ne(backupSettings.expiryBackupFor, expiry)),
      })
      .returning({ gameId: backupSettings.gameId });
    return rows.length > 0;
  }
}
