import type { ChildProcess } from 'node:child_process';
import net, { type Socket } from 'node:net';

/**
 * A client's connection handed by the gateway to the game server's own process over its IPC
 * channel, instead of being copied (docs/decisions.md, "The gateway hands a local server its
 * connections"): the socket's file descriptor goes to the child with the bytes the gateway already
 * read from it (the handshake, a login start), and the child's server takes it as a connection of
 * its own. From then on the bytes go between the player and the server with no process between.
 * Only a server run by a child of the gateway's process can take it (the local driver's, in the
 * API); everywhere else the gateway copies.
 */

/** What a handed socket comes with: JSON on the IPC channel, so the head is base64. */
interface HandOffMessage {
  type: 'connection';
  head: string;
}

/** The parts of Node's socket that a hand-off touches, which its types do not show. */
interface SocketInternals {
  _handle: { readStop(): number; reading: boolean } | null;
  /** Set by `net.Server` on the sockets it accepts. */
  server: net.Server | null;
}

/** The hand-offs under way to each child, told when its channel closes: one listener per child, however many at once. */
const underWay = new WeakMap<ChildProcess, Set<() => void>>();

function onDisconnect(child: ChildProcess, listener: () => void): () => void {
  const listeners = underWay.get(child) ?? new Set<() => void>();
  if (!underWay.has(child)) {
    underWay.set(child, listeners);
    child.once('disconnect', () => {
      for (const each of listeners) each();
    });
  }
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/**
 * Gives `socket` and the bytes read from it (`head`) to `child`. Resolves true once the socket is
 * the child's, or was lost on the way (the child went away meanwhile): the caller only destroys
 * its now empty socket object. Resolves false when the socket was not touched (no channel, or it
 * closed before the socket's turn): the caller may still use it, and copies instead.
 */
export function handOver(child: ChildProcess, socket: Socket, head: Buffer): Promise<boolean> {
  const inner = socket as unknown as SocketInternals;
  const handle = inner._handle;
  if (!child.connected || !handle || socket.destroyed) return Promise.resolve(false);
  // Node's send takes the handle out of the socket and sets its `onread` to nothing until the
  // child acknowledges it (lib/internal/child_process.js, `handleConversion['net.Socket']`): bytes
  // libuv read in this process meanwhile would be dropped. So this process stops reading first,
  // and the kernel keeps whatever comes next for the child. `reading` false lets Node start again
  // if the socket comes back. The caller has taken what Node had read already into `head`.
  handle.readStop();
  handle.reading = false;
  // A socket from a `net.Server` is sent as a cluster worker's: the server would count it in the
  // child (`_setupWorker`), and its `close()` wait for the child to close it. The gateway's server
  // keeps counting it as its own instead (`_server`, which its destroy below counts down).
  const server = inner.server;
  inner.server = null;
  const message: HandOffMessage = { type: 'connection', head: head.toString('base64') };
  return new Promise((resolve) => {
    let settled = false;
    const settle = (sent: boolean) => {
      if (settled) return;
      settled = true;
      forget();
      // Sent, the handle is the child's and the caller destroys the empty socket object left here.
      if (!sent) inner.server = server;
      resolve(sent);
    };
    // Node's send holds a socket queued behind one not yet acknowledged; when the channel closes,
    // neither is ever sent nor called back. One still holding its handle is the caller's again.
    const forget = onDisconnect(child, () => settle(!inner._handle));
    try {
      child.send(message, socket, {}, (error) => settle(!error || !inner._handle));
    } catch {
      settle(!inner._handle);
    }
  });
}

/**
 * The child's side: each socket handed by the parent, its head put back in front of its bytes,
 * goes to `accept`, which gives it to its server as a connection or answers false (not serving
 * now: the connection is closed).
 */
export function takeHandedConnections(accept: (socket: Socket) => boolean): void {
  process.on('message', (message: unknown, handle: unknown) => {
    const m = message as Partial<HandOffMessage> | null;
    if (m?.type !== 'connection') return;
    if (!(handle instanceof net.Socket)) return;
    handle.on('error', () => handle.destroy());
    // Node emits the message on the tick after it made the socket, before any of its bytes can be
    // read: the head is first in its stream.
    if (typeof m.head === 'string' && m.head) handle.unshift(Buffer.from(m.head, 'base64'));
    if (!accept(handle)) handle.destroy();
  });
}
