import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { backupLinks, backups } from '../../db/schema/backups.ts';
import { HttpProblem, notFound } from '../../lib/problems.ts';
import type { ObjectStore } from '../../storage/store.ts';
import type { GameWorlds } from '../games/world.ts';
import type { BackupLink } from '../../../contract/backups.ts';
import type { Clock } from '../games/runtime.ts';
import type { AccessScope, EventBus, LevelCheck } from '../../events.ts';
import { validTimeZone } from './nightly.ts';

/** A download link's life. */
const LINK_MS = 10 * 60_000;

/**
 * Download links of backups: a token that downloads one READY backup without signing in, for 10
 * minutes, or until whoever made it loses their access to the game.
 */
export class BackupLinks {
  private readonly db: Db;
  private readonly store: ObjectStore;
  private readonly worlds: GameWorlds;
  private readonly options: { publicUrl: string; clock: Clock };

  constructor(db: Db, deps: { store: ObjectStore; worlds: GameWorlds; events: EventBus }, options: { publicUrl: string; clock: Clock }) {
    this.db = db;
    this.store = deps.store;
    this.worlds = deps.worlds;
    this.options = options;
    // What someone left behind on a game they lost stops working with their access.
    deps.events.on('sharing.accessEnded', ({ scope, executor, levelOf }) => this.left(scope, executor, levelOf));
  }

  private now(): Date {
    return this.options.clock();
  }

  /** A new link to a READY backup (the caller checked it), made by `by`. */
  async create(backupId: string, by: string | null): Promise<BackupLink> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.now().getTime() + LINK_MS);
    await this.db.delete(backupLinks).where(lt(backupLinks.expiresAt, this.now()));
    await this.db.insert(backupLinks).values({ tokenHash: hashOf(token), backupId, expiresAt, createdBy: by });
    return { url: `${this.options.publicUrl}/v1/backup-download/${token}`, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Some people's access ended (`sharing.accessEnded`, in its transaction): the download links they
   * made of games where they are no longer co-admins stop working now rather than at expiry.
   */
  private async left(scope: AccessScope, executor: Executor, holds: LevelCheck): Promise<void> {
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
    const world = await this.worlds.of(backup.gameId);
    const filename = `${slug(world.name)}-${wallClockStamp(backup.createdAt, timeZone)}.zip`;
    return { key: backup.objectKey, sizeBytes: backup.sizeBytes ?? 0, filename, redirect: await this.store.downloadUrl(backup.objectKey, filename, LINK_MS / 1000) };
  }

  /** Streams a stored archive, whole or a byte range of it. */
  read(key: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream> {
    return this.store.read(key, range);
  }
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** An instant as the downloader's clock read it, for a file name: 2026-11-24-22-30. */
function wallClockStamp(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}-${parts.hour}-${parts.minute}`;
}

/** A file name from a game's name: letters, digits and dashes. */
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
