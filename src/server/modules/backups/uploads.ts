import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { conflict, HttpProblem, type ErrorKey } from '../../lib/problems.ts';
import type { ObjectStore } from '../../storage/store.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { GameWorlds } from '../games/world.ts';
import { inspectArchive, MAX_UNPACK_RATIO, maxUnpackedFor, WorldArchiveError, type WorldArchiveCode } from '../../../runtime/minecraft/world-archive.ts';
import type { Clock } from '../games/runtime.ts';
import type { GameLock } from '../games/lock.ts';
import { MB, type BackupWork } from './work.ts';

/** A world uploaded by its owner, checked, stored, then put in place as a restore is. */
export class WorldUploads {
  private readonly store: ObjectStore;
  private readonly worlds: GameWorlds;
  private readonly catalogue: CatalogueService;
  private readonly lock: GameLock;
  private readonly work: BackupWork;
  private readonly options: { uploadDir: string; clock: Clock };

  constructor(
    deps: { store: ObjectStore; worlds: GameWorlds; catalogue: CatalogueService; lock: GameLock; work: BackupWork },
    /** `uploadDir`: where uploaded worlds wait while their directory is read (a local disk of the API). */
    options: { uploadDir: string; clock: Clock },
  ) {
    this.store = deps.store;
    this.worlds = deps.worlds;
    this.catalogue = deps.catalogue;
    this.lock = deps.lock;
    this.work = deps.work;
    this.options = options;
  }

  private now(): Date {
    return this.options.clock();
  }

  /**
   * Replaces the game's world by an uploaded .zip (202). The upload is written to a temporary file
   * and its directory read before anything changes: a file that is no zip, too large for the
   * package, a zip bomb, unsafe names, links or no level.dat are refused (413, 422) and nothing
   * is kept. An accepted world is stored, then put in place as a restore is: after an automatic
   * backup of the current world, with the server stopped, checked again once unpacked.
   */
  async upload(gameId: string, body: NodeJS.ReadableStream, declaredBytes: number | undefined): Promise<void> {
    const world = await this.worlds.of(gameId);
    if (world.worldDeleted) throw conflict('backups.worldDeleted');
    const { backupsMaxMb } = await this.catalogue.backupQuota(world.packageId);
    const maxBytes = backupsMaxMb * MB;
    const tooLarge = () => new HttpProblem(413, 'archive.too-large', { maxMb: backupsMaxMb });
    if (declaredBytes !== undefined && declaredBytes > maxBytes) throw tooLarge();
    if (!(await this.lock.take(gameId, 'RESTORE'))) throw conflict('backups.busy');
    // A slow connection may stream for many minutes: the lock lives as long as the upload does.
    const hold = this.lock.hold(gameId);
    const { temp, key } = this.paths(gameId);
    try {
      await fs.promises.mkdir(this.options.uploadDir, { recursive: true });
      // What an upload of this game killed half-way left, if the sweep has not been by since.
      await this.drop(gameId);
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
      await this.lock.release(gameId);
      throw err;
    } finally {
      await fs.promises.rm(temp, { force: true });
    }
    this.work.track(
      this.work
        .putBack(world, { objectKey: key, createdAt: this.now(), id: key }, 'beforeUpload')
        .finally(() => this.store.delete(key))
        .finally(() => hold.stop())
        .finally(() => this.lock.release(gameId)),
    );
  }

  /**
   * Where a game's world upload is kept until it is restored: one per game, since the game's lock
   * allows one at a time, so what a killed upload left is found again by the game alone.
   */
  private paths(gameId: string): { temp: string; key: string } {
    return { temp: path.join(this.options.uploadDir, `${gameId}.zip`), key: `games/${gameId}/uploads/world.zip` };
  }

  /** Deletes a game's upload: the local copy and the stored one, with what an unfinished write of either left. */
  async drop(gameId: string): Promise<void> {
    const { temp, key } = this.paths(gameId);
    await fs.promises.rm(temp, { force: true });
    await this.store.discard(key);
  }
}

/** The error key of an archive's refusal: `archive.not-zip`, or `archive.corrupt` for a damaged world. */
function archiveKey(code: WorldArchiveCode): ErrorKey {
  return code === 'world.corrupt' || code === 'transfer.failed' ? 'archive.corrupt' : code;
}
