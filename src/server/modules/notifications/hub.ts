import type { ServerResponse } from 'node:http';
import { HEARTBEAT_EVENT, NOTIFICATION_EVENT, type NotificationData } from '../../../contract/notifications.ts';
import { RESOURCE_CHANGE_EVENT, type ResourceChange } from '../../../contract/live.ts';
import { sseFrame } from '../../lib/sse.ts';
import { StreamSlots, type OpenStream, type StreamLimits } from '../../lib/stream-slots.ts';

const HEARTBEAT_MS = 15_000;

/** What crosses replicas on the `notifications` channel: small enough for NOTIFY's 8 000 bytes. */
export interface Delivery {
  userId: string;
  id: string;
  seq: number;
  data: NotificationData;
}

interface Stream extends OpenStream {
  /** Highest seq already written, so a replay racing a live delivery sends nothing twice. */
  lastSeq: number;
  /** Live deliveries held back while the backlog is replayed, so order is kept. */
  held: Delivery[] | null;
}

/** The open notification streams of this process, by user, within the streams' limits. */
export class StreamHub {
  private readonly slots: StreamSlots<Stream>;

  constructor(limits: StreamLimits = { perUser: 10, perAddress: 200 }, heartbeatMs = HEARTBEAT_MS) {
    this.slots = new StreamSlots(limits, sseFrame(HEARTBEAT_EVENT, {}), heartbeatMs);
  }

  get count(): number {
    return this.slots.count;
  }

  /** Whether `address` may open one more stream. */
  admits(address: string): boolean {
    return this.slots.admits(address);
  }

  /**
   * Registers a stream, closing the user's oldest ones past their limit; with `replaying`, live
   * deliveries wait until `replayed` is called.
   */
  open(userId: string, res: ServerResponse, replaying = false, address = ''): Stream {
    const stream: Stream = { res, address, lastSeq: 0, held: replaying ? [] : null };
    this.slots.add(userId, stream);
    return stream;
  }

  send(stream: Stream, delivery: Pick<Delivery, 'id' | 'seq' | 'data'>): void {
    if (delivery.seq <= stream.lastSeq) return;
    stream.lastSeq = delivery.seq;
    stream.res.write(sseFrame(NOTIFICATION_EVENT, delivery.data, delivery.id));
  }

  /** Writes the backlog, then what arrived live meanwhile. */
  replayed(stream: Stream, backlog: Delivery[]): void {
    for (const d of backlog) this.send(stream, d);
    // In seq order: a catch-up's backlog may be added after later live deliveries.
    const held = (stream.held ?? []).sort((a, b) => a.seq - b.seq);
    stream.held = null;
    for (const d of held) this.send(stream, d);
  }

  /**
   * Delivers what NOTIFY may have lost (the LISTEN connection dropped) to the streams open now:
   * `load` reads it back for their users. Live deliveries wait meanwhile, or a later seq arriving
   * live would make a stream skip an earlier one of the backlog.
   */
  async catchUp(load: (userIds: string[]) => Promise<Delivery[]>): Promise<void> {
    const streams: Array<{ userId: string; stream: Stream; ours: boolean }> = [];
    for (const [userId, stream] of this.slots.all()) {
      const ours = !stream.held;
      if (ours) stream.held = [];
      streams.push({ userId, stream, ours });
    }
    const byUser = new Map<string, Delivery[]>();
    try {
      const backlog = streams.length > 0 ? await load([...new Set(streams.map((s) => s.userId))]) : [];
      for (const d of backlog) {
        const list = byUser.get(d.userId);
        if (list) list.push(d);
        else byUser.set(d.userId, [d]);
      }
    } finally {
      for (const { userId, stream, ours } of streams) {
        if (!this.slots.has(userId, stream)) continue;
        const mine = byUser.get(userId) ?? [];
        if (ours) this.replayed(stream, mine);
        // Still replaying after Last-Event-ID: that replay writes these with the rest it holds.
        else if (stream.held) stream.held.push(...mine);
        else for (const d of mine) this.send(stream, d);
      }
    }
  }

  deliver(delivery: Delivery): void {
    for (const stream of this.slots.of(delivery.userId)) {
      if (stream.held) stream.held.push(delivery);
      else this.send(stream, delivery);
    }
  }

  /**
   * Tells a user's open streams that a resource changed. Written at once, even to a stream still
   * replaying its backlog: it has no id, so it neither moves Last-Event-ID nor is replayed.
   */
  publish(userId: string, change: ResourceChange): void {
    const frame = sseFrame(RESOURCE_CHANGE_EVENT, change);
    for (const stream of this.slots.of(userId)) stream.res.write(frame);
  }

  /** Tells every open stream, whoever its user, of `changes`. */
  publishToAll(changes: ResourceChange[]): void {
    for (const userId of [...this.slots.users()]) for (const change of changes) this.publish(userId, change);
  }

  /** Ends every stream (shutdown): clients see the stream close. */
  closeAll(): void {
    this.slots.closeAll();
  }
}
