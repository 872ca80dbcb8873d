import type { ServerResponse } from 'node:http';

export interface StreamLimits {
  /** Streams one user may hold: a new one closes their oldest (a tab left open elsewhere). */
  perUser: number;
  /** Streams one address may hold: past it a new one is refused, so nobody closes another's. */
  perAddress: number;
}

/** What every open stream has: its response, and the address it was opened from. */
export interface OpenStream {
  res: ServerResponse;
  address: string;
}

/**
 * The open event streams of one kind (notifications, consoles) in this process, by user, within
 * limits: each stream holds a socket and a file descriptor, so one user or one address must not
 * take them all. One timer beats every stream, so an idle stream costs its socket and one small
 * object. A stream is forgotten when its response closes.
 */
export class StreamSlots<S extends OpenStream> {
  private readonly byUser = new Map<string, Set<S>>();
  private readonly perAddress = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | undefined;
  private size = 0;
  private readonly limits: StreamLimits;
  private readonly beatFrame: string;
  private readonly heartbeatMs: number;

  constructor(limits: StreamLimits, beatFrame: string, heartbeatMs: number) {
    this.limits = limits;
    this.beatFrame = beatFrame;
    this.heartbeatMs = heartbeatMs;
  }

  get count(): number {
    return this.size;
  }

  /** Whether `address` may open one more stream. */
  admits(address: string): boolean {
    return (this.perAddress.get(address) ?? 0) < this.limits.perAddress;
  }

  /** Registers a stream of `userId`'s, ending their oldest ones past their limit. */
  add(userId: string, stream: S): void {
    let set = this.byUser.get(userId);
    if (!set) this.byUser.set(userId, (set = new Set()));
    // A Set keeps insertion order: the first streams are the oldest. Each is forgotten before it
    // ends, so nothing writes to it meanwhile.
    for (const oldest of [...set].slice(0, Math.max(0, set.size - this.limits.perUser + 1))) {
      this.drop(userId, oldest);
      oldest.res.end();
    }
    set.add(stream);
    this.perAddress.set(stream.address, (this.perAddress.get(stream.address) ?? 0) + 1);
    this.size++;
    this.heartbeat ??= setInterval(() => this.beat(), this.heartbeatMs).unref();
    stream.res.on('close', () => this.drop(userId, stream));
  }

  /** The user's open streams. */
  of(userId: string): ReadonlySet<S> {
    return this.byUser.get(userId) ?? new Set();
  }

  /** Whether the stream is still open and registered. */
  has(userId: string, stream: S): boolean {
    return this.byUser.get(userId)?.has(stream) ?? false;
  }

  /** Ids of the users holding streams. */
  users(): Iterable<string> {
    return this.byUser.keys();
  }

  /** Every open stream, with its user. */
  *all(): Iterable<[string, S]> {
    for (const [userId, set] of this.byUser) for (const stream of set) yield [userId, stream];
  }

  /** Ends one stream now, forgetting it at once. */
  close(userId: string, stream: S): void {
    this.drop(userId, stream);
    stream.res.end();
  }

  /** Ends every stream (shutdown): clients see the stream close. */
  closeAll(): void {
    for (const set of this.byUser.values()) for (const s of set) s.res.end();
    this.byUser.clear();
    this.perAddress.clear();
    this.size = 0;
    this.stopBeating();
  }

  private drop(userId: string, stream: S) {
    const set = this.byUser.get(userId);
    if (!set?.delete(stream)) return;
    this.size--;
    if (set.size === 0) this.byUser.delete(userId);
    const left = (this.perAddress.get(stream.address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(stream.address, left);
    else this.perAddress.delete(stream.address);
    if (this.size === 0) this.stopBeating();
  }

  private stopBeating() {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private beat() {
    for (const set of this.byUser.values()) for (const s of set) if (!s.res.writableEnded) s.res.write(this.beatFrame);
  }
}
