/** What the cache reads of a GameServer (kubernetes.ts has the whole type, and makes the cache). */
interface Watched {
  metadata: { name: string; uid?: string; resourceVersion?: string };
}

/** What the cache needs of the API: a list of the GameServers, and a watch from its resourceVersion. */
export interface GameServerSource<GameServer extends Watched> {
  listGameServers(labelSelector: string): Promise<{ items: GameServer[]; resourceVersion: string }>;
  /**
   * Opens a watch; resolves once it is open (or ended at once), `onEnd` hears how it ended (an
   * error with its `statusCode`, or null for a clean end).
   */
  openGameServerWatch(
    labelSelector: string,
    resourceVersion: string,
    onEvent: (type: string, object: GameServer & { code?: number }) => void,
    onEnd: (err: unknown) => void,
  ): Promise<{ stop(): void }>;
}

/** The longest wait before the cache lists again after a failure (it doubles from half a second). */
const maxRetryMs = 30_000;

/**
 * The driver's GameServers in memory, kept by one long-lived watch on the namespace's collection
 * (with the driver's label selector) instead of a GET per game per reconciler look: listed once,
 * then each ADDED, MODIFIED and DELETED event applied. A watch that ends cleanly (the API's own
 * time-out, a proxy) is opened again from the last resourceVersion; one refused with 410 Gone (the
 * API forgot that version) or failed lists again, after a growing pause while the API fails.
 *
 * `get` says `undefined`, for the caller to ask the API, whenever memory cannot be trusted: before
 * the first list, after a failure until the next list, and for a GameServer this process just
 * created or deleted until the watch showed that write (by the object's uid), so the reconciler
 * never sees a game it just started as missing nor one it just deleted as still there.
 */
export class GameServerCache<GameServer extends Watched> {
  private objects = new Map<string, GameServer>();
  private resourceVersion = '';
  /** The memory holds the API's state (a list was applied and no failure since). */
  private synced = false;
  private started = false;
  private stopped = false;
  private watch: { stop(): void } | undefined;
  private retry: NodeJS.Timeout | undefined;
  private failures = 0;
  /** Settles once the first list succeeded or failed. */
  private firstList: Promise<void> | undefined;
  /** This process's writes the watch has not shown yet, by name, numbered in order. */
  private readonly pending = new Map<string, { uid: string; present: boolean; seq: number }>();
  private writes = 0;

  private readonly source: GameServerSource<GameServer>;
  private readonly labelSelector: string;
  private readonly onChange: ((previous: GameServer | undefined, next: GameServer) => void) | undefined;

  /** `onChange` hears each GameServer the watch shows added or modified, with what memory held before. */
  constructor(source: GameServerSource<GameServer>, labelSelector: string, onChange?: (previous: GameServer | undefined, next: GameServer) => void) {
    this.source = source;
    this.labelSelector = labelSelector;
    this.onChange = onChange;
  }

  /** Starts the watch (once); resolves when the first list is done, in success or failure. */
  ready(): Promise<void> {
    if (!this.started && !this.stopped) {
      this.started = true;
      this.firstList = this.list();
    }
    return this.firstList ?? Promise.resolve();
  }

  /** The GameServer of that name, null when there is none; undefined when memory cannot tell. */
  get(name: string): GameServer | null | undefined {
    if (!this.synced) return undefined;
    if (this.pending.has(name)) return undefined;
    return this.objects.get(name) ?? null;
  }

  /** This process created (`present`) or deleted the GameServer of that uid. */
  wrote(name: string, uid: string | undefined, present: boolean): void {
    if (!uid) return;
    this.pending.set(name, { uid, present, seq: ++this.writes });
  }

  /** The uid of the GameServer of that name in memory, if any. */
  uidOf(name: string): string | undefined {
    return this.objects.get(name)?.metadata.uid;
  }

  stop(): void {
    this.stopped = true;
    this.synced = false;
    clearTimeout(this.retry);
    this.watch?.stop();
    this.watch = undefined;
  }

  private async list(): Promise<void> {
    const before = this.writes;
    let list: { items: GameServer[]; resourceVersion: string };
    try {
      list = await this.source.listGameServers(this.labelSelector);
    } catch {
      this.failed();
      return;
    }
    if (this.stopped) return;
    this.objects = new Map(list.items.map((gs) => [gs.metadata.name, gs]));
    // The list was read after these writes: it shows them, as they are now.
    for (const [name, write] of this.pending) if (write.seq <= before) this.pending.delete(name);
    this.resourceVersion = list.resourceVersion;
    this.synced = true;
    void this.open();
  }

  private async open(): Promise<void> {
    let ended = false;
    const onEnd = (err: unknown) => {
      ended = true;
      this.watch = undefined;
      if (this.stopped) return;
      const gone = (err as { statusCode?: number } | null)?.statusCode === 410;
      if (gone) this.resourceVersion = '';
      if (err && !gone) this.failed();
      // A clean end (or 410 Gone, told in the stream or as the answer) goes on at once.
      else if (this.resourceVersion) void this.open();
      else void this.list();
    };
    try {
      const watch = await this.source.openGameServerWatch(this.labelSelector, this.resourceVersion, (type, object) => this.apply(type, object), onEnd);
      if (ended || this.stopped) watch.stop();
      else {
        this.watch = watch;
        this.failures = 0;
      }
    } catch (err) {
      if (!ended) onEnd(err);
    }
  }

  private apply(type: string, object: GameServer & { code?: number }): void {
    if (type === 'ERROR') {
      // 410 Gone: the API forgot the version watched from; it ends the watch, and a list follows.
      if (object.code === 410) this.resourceVersion = '';
      return;
    }
    const { name, uid, resourceVersion } = object.metadata;
    if (type === 'ADDED' || type === 'MODIFIED') {
      const previous = this.objects.get(name);
      this.objects.set(name, object);
      this.onChange?.(previous, object);
    } else if (type === 'DELETED') this.objects.delete(name);
    const write = this.pending.get(name);
    // A create is shown by any event of its object; a delete by its DELETED.
    if (write && write.uid === uid && (write.present || type === 'DELETED')) this.pending.delete(name);
    if (resourceVersion) this.resourceVersion = resourceVersion;
  }

  /** Memory is not trusted until a list after a pause, growing while the API fails. */
  private failed(): void {
    this.synced = false;
    if (this.stopped) return;
    const delay = Math.min(maxRetryMs, 500 * 2 ** this.failures++);
    this.retry = setTimeout(() => void this.list(), delay);
    this.retry.unref();
  }
}
