import type { Database } from '../db/client.ts';
import { TtlCache } from './ttl-cache.ts';

/**
 * A read cache kept true by the database: a trigger NOTIFYs the key of every changed row on
 * `channel`, and NOTIFY is sent at commit, by whichever replica or module wrote it. So a cached
 * value lives until its row changes. Notices sent while the LISTEN connection was down are lost:
 * everything cached is dropped when it comes back, and the time to live bounds the damage meanwhile.
 */
export class NotifiedCache<V> {
  private values: TtlCache<string, V>;
  private readonly maxEntries: number;
  private readonly database: Database;
  private readonly channel: string;
  private readonly ttlMs: number;
  /** Bumped by every notice: a read that started before a notice must not be cached after it. */
  private epoch = 0;
  /** Keys this process is changing: read through until the commit's notice (or the TTL) arrives. */
  private readonly dirty: TtlCache<string, true>;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(database: Database, channel: string, { maxEntries = 10_000, ttlMs = 30_000 } = {}) {
    this.database = database;
    this.channel = channel;
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.values = new TtlCache(maxEntries);
    this.dirty = new TtlCache(maxEntries);
  }

  async start(): Promise<void> {
    this.unlisten ??= await this.database.listen(
      this.channel,
      (key) => {
        this.epoch++;
        this.values.delete(key);
        this.dirty.delete(key);
      },
      {
        // Any key may have changed unannounced; reads in flight must not cache what they load
        // either. Dirty keys stay dirty: their own notice may be among the lost ones.
        onReconnect: () => {
          this.epoch++;
          this.values = new TtlCache(this.maxEntries);
        },
      },
    );
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  /**
   * Call before writing a key's row: its notice comes only at commit (on PostgreSQL, over another
   * connection, maybe after the writer's caller has read again), so until then this process reads
   * the database, and the caller sees its own write.
   */
  markDirty(key: string): void {
    this.epoch++;
    this.values.delete(key);
    this.dirty.set(key, true, this.ttlMs);
  }

  /** The cached value, or `load()`'s, cached only while listening and if no notice came meanwhile. */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.dirty.get(key)) return load();
    const known = this.values.get(key);
    if (known !== undefined) return known;
    const epoch = this.epoch;
    const value = await load();
    if (this.unlisten && epoch === this.epoch) this.values.set(key, value, this.ttlMs);
    return value;
  }
}
