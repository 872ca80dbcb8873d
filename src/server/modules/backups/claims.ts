import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { backupSettings } from '../../db/schema/backups.ts';
import type { Clock } from '../games/runtime.ts';

export type ClaimWork = 'BACKUP' | 'RESTORE';

/**
 * A game's claim for one backup, restore or upload at a time, on any replica: the game's
 * `backup_settings.busy`, taken in one conditional write, renewed while its work lives (every
 * sixth of the claim, so a few misses still leave it claimed), and lapsed once silent for a claim's
 * length, when the backup rounds free it.
 */
export class GameClaims {
  private readonly db: Db;
  private readonly options: { clock: Clock; claimMs: number };

  constructor(db: Db, options: { clock: Clock; claimMs: number }) {
    this.db = db;
    this.options = options;
  }

  get claimMs(): number {
    return this.options.claimMs;
  }

  /** How often running work renews its claim. */
  get heartbeatMs(): number {
    return this.options.claimMs / 6;
  }

  private now(): Date {
    return this.options.clock();
  }

  /**
   * Claims the game for one backup or restore; false while another holds it. With `expiry`, the
   * backup of that expiry, which the same write records: false when it was taken already.
   */
  async claim(gameId: string, work: ClaimWork, expiry?: Date): Promise<boolean> {
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

  async renew(gameId: string): Promise<void> {
    await this.db
      .update(backupSettings)
      .set({ busyUntil: new Date(this.now().getTime() + this.options.claimMs) })
      .where(and(eq(backupSettings.gameId, gameId), sql`${backupSettings.busy} is not null`));
  }

  /**
   * Keeps a claim alive while its work lives: renewed every sixth of the claim, and by `touch` whenever
   * the clock moved on as much since (a streaming upload touches it with each part it receives, so
   * the claim never lapses under a body still coming). `stop` once the work ended.
   */
  hold(gameId: string): { touch(): Promise<void>; stop(): void } {
    let renewed = this.now().getTime();
    const renew = async () => {
      renewed = this.now().getTime();
      await this.renew(gameId);
    };
    const timer = setInterval(() => void renew().catch(() => {}), this.heartbeatMs);
    return {
      touch: async () => {
        if (this.now().getTime() - renewed >= this.heartbeatMs) await renew();
      },
      stop: () => clearInterval(timer),
    };
  }

  async release(gameId: string): Promise<void> {
    await this.db.update(backupSettings).set({ busy: null, busyUntil: null }).where(eq(backupSettings.gameId, gameId));
  }
}
