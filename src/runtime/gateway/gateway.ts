import net, { type Socket } from 'node:net';
import { MAX_HANDSHAKE_BYTES, legacyPingAnswer, newSplitter, readFirst, readLoginName, type Intent } from './packets.ts';
import { answerLocally } from './local-answer.ts';
import { words, type GatewayText } from './words.ts';

/**
 * The game gateway: one TCP port for every game. It reads a connection's handshake, asks `route`
 * where the host name the player typed leads, and from then on only copies bytes both ways, the
 * bytes it read replayed to the game's server first; or, when the target can take the connection
 * itself (a server run by a child of this process), hands it over and copies nothing. It keeps no
 * game state: what a name leads to is the router's to say, so the gateway can be restarted or run
 * in several copies.
 */

/** Where a connection goes. */
export interface Target {
  host: string;
  port: number;
  /**
   * Gives the client's socket, with the bytes already read from it (`head`), to the server's
   * process (`hand-off.ts`, docs/decisions.md, "The gateway hands a local server its
   * connections"). True: the socket is no longer the gateway's, which forgets it. False: it was
   * not touched, and the gateway connects to `host:port` and copies, as without it.
   */
  handOff?(socket: Socket, head: Buffer): Promise<boolean>;
}

interface RouteRequest {
  /** The host the player typed, normalised (`packets.ts`, `hostName`). */
  host: string;
  intent: Intent;
  protocolVersion: number;
  remoteAddress: string | undefined;
  /** The name the player logs in with, from its login start (a login only). */
  username?: string;
  /**
   * Aborted when the client goes away. A router may take its time (a later wake holds a login
   * until the game runs): the client's bytes are kept meanwhile and replayed once it answers.
   */
  signal: AbortSignal;
}

/**
 * A target; null for a name that leads nowhere (answered "does not exist"); 'stopped' for a game
 * whose server does not run (answered so); or the router's own words for the gateway to answer
 * with (a sleeping game's list entry, a wake refused).
 */
type Route = Target | null | 'stopped' | { answer: GatewayText };
type Router = (request: RouteRequest) => Route | Promise<Route>;

export interface GatewayOptions {
  route: Router;
  /** The whole handshake must arrive within this (5 s). */
  handshakeTimeoutMs?: number;
  /** A target that neither accepts nor refuses within this is taken as refusing (5 s). */
  connectTimeoutMs?: number;
  /** Where a router's failure is told (nothing by default). */
  log?: (message: string, error?: unknown) => void;
  /**
   * Clients connected at once (5 000), and from one address (50): past either, a new client's
   * handshake is answered "full" (a list entry, or a login refused) and nothing is routed; far past
   * them (a tenth more, or twice as many from one address) it is closed unanswered.
   */
  maxConnections?: number;
  connectionsPerAddress?: number;
}

/** Bytes a client may send while its route is decided (a login start is well under 1 kB). */
const MAX_HELD_BYTES = 64 * 1024;

/**
 * The reads of a server's bytes, into a buffer of the connection's own: a small one while the
 * server sends little (a player playing), a large one while reads fill the small one (a world's
 * chunks, a bulk stream), back to the small one after SHRINK_AFTER reads that would have fit it.
 * Larger reads cost less CPU per byte on a bulk stream; an idle player keeps only the small one
 * (docs/decisions.md).
 */
const SMALL_READ = 16 * 1024;
const LARGE_READ = 512 * 1024;
const SHRINK_AFTER = 32;

export interface Gateway {
  /** Listens; resolves with the port (0 picks a free one). */
  listen(port: number, host?: string): Promise<number>;
  /** Sockets open now, clients' and targets', for tests and metrics. */
  openSockets(): number;
  close(): Promise<void>;
}

export function createGateway(options: GatewayOptions): Gateway {
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? 5000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const log = options.log ?? (() => {});
  const maxConnections = options.maxConnections ?? 5000;
  const perAddress = options.connectionsPerAddress ?? 50;
  const sockets = new Set<Socket>();
  let clients = 0;
  const byAddress = new Map<string, number>();

  /** Counts the client in; what to answer it when it is one too many, or 'drop' when far too many. */
  function admit(client: Socket): GatewayText | 'drop' | null {
    const address = client.remoteAddress ?? '';
    const fromAddress = (byAddress.get(address) ?? 0) + 1;
    byAddress.set(address, fromAddress);
    clients += 1;
    client.once('close', () => {
      clients -= 1;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    });
    if (clients > maxConnections + Math.max(100, maxConnections / 10) || fromAddress > 2 * perAddress) return 'drop';
    if (clients > maxConnections) return words.full;
    if (fromAddress > perAddress) return words.tooManyFromAddress;
    return null;
  }

  function track(socket: Socket): void {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // Errors end the socket; 'close' follows. Without a listener an error would be thrown.
    socket.on('error', () => socket.destroy());
  }

  function handle(client: Socket): void {
    track(client);
    const full = admit(client);
    if (full === 'drop') return void client.destroy();
    client.setNoDelay(true);
    const held: Buffer[] = [];
    let heldBytes = 0;
    let first: ReturnType<typeof readFirst> | undefined;
    /** Frames after the handshake, for a local answer; the piping phase never reads them. */
    let onFrame: ((frame: Buffer) => void) | null = null;
    const queued: Buffer[] = [];
    const aborter = new AbortController();
    client.once('close', () => aborter.abort());

    const handshakeTimer = setTimeout(() => client.destroy(), handshakeTimeoutMs);
    handshakeTimer.unref();
    client.once('close', () => clearTimeout(handshakeTimer));

    const splitter = newSplitter();
    splitter.on('error', () => client.destroy());
    splitter.on('data', (frame: Buffer) => {
      if (client.destroyed) return;
      if (first === undefined) {
        first = readFirst(frame);
        splitter.recognizeLegacyPing = false;
        clearTimeout(handshakeTimer);
        if (!first) return void client.destroy();
        if (first.kind === 'legacy-ping') return void client.end(legacyPingAnswer(words.oldClient));
        const { host, intent, protocolVersion } = first;
        if (full) return answer(intent, protocolVersion, full);
        if (intent === 'status') return void dispatch(host, intent, protocolVersion);
        // A login is routed once its login start says who logs in (a sleeping game wakes only for
        // a player allowed on it); the frame stays held with the others and is replayed.
        const loginTimer = setTimeout(() => client.destroy(), handshakeTimeoutMs);
        loginTimer.unref();
        onFrame = (frame) => {
          clearTimeout(loginTimer);
          onFrame = null;
          void dispatch(host, intent, protocolVersion, readLoginName(frame) ?? undefined);
        };
        return;
      }
      if (onFrame) onFrame(frame);
      else queued.push(frame);
    });

    const onData = (chunk: Buffer) => {
      held.push(chunk);
      heldBytes += chunk.length;
      // Before the handshake, a frame longer than a handshake can be is no client's; after it,
      // until the route answers, a client has no reason to send much.
      if ((first === undefined && heldBytes > MAX_HANDSHAKE_BYTES + 64) || heldBytes > MAX_HELD_BYTES) return void client.destroy();
      try {
        splitter.write(chunk);
      } catch {
        client.destroy();
      }
    };
    client.on('data', onData);

    const answer = (intent: Intent, protocolVersion: number, text: GatewayText) => {
      onFrame = answerLocally(client, intent, protocolVersion, text, handshakeTimeoutMs);
      for (const frame of queued.splice(0)) onFrame(frame);
    };

    async function dispatch(host: string, intent: Intent, protocolVersion: number, username?: string): Promise<void> {
      let target: Route;
      try {
        target = await options.route({ host, intent, protocolVersion, remoteAddress: client.remoteAddress, signal: aborter.signal, ...(username ? { username } : {}) });
      } catch (error) {
        log(`gateway: no route for ${host}`, error);
        return answer(intent, protocolVersion, words.unreachable(host));
      }
      if (client.destroyed) return;
      if (!target) return answer(intent, protocolVersion, words.unknown(host));
      if (target === 'stopped') return answer(intent, protocolVersion, words.stopped(host));
      if ('answer' in target) return answer(intent, protocolVersion, target.answer);
      if (target.handOff && (await handOff(target.handOff))) return;
      if (client.destroyed) return;
      connect(target, host, intent, protocolVersion);
    }

    /** Gives the client to the target's own process; false when it would not take it (the client is read again). */
    async function handOff(give: NonNullable<Target['handOff']>): Promise<boolean> {
      client.off('data', onData);
      client.pause();
      // What Node read and did not hand to `onData` yet is read as the rest was, into `held`.
      for (let chunk: Buffer | null; (chunk = client.read() as Buffer | null) !== null;) onData(chunk);
      if (client.destroyed) return true;
      const handed = await give(client, Buffer.concat(held)).catch((error: unknown) => {
        log('gateway: a hand-off failed', error);
        return false;
      });
      if (handed) {
        // Its own socket object, empty now: closed so that the counts of connections go down.
        client.destroy();
        return true;
      }
      client.on('data', onData);
      client.resume();
      return false;
    }

    function connect(target: Target, host: string, intent: Intent, protocolVersion: number): void {
      // The server's bytes (the bulk: chunks) are read into one buffer of this connection's own and
      // written to the client as they are: no Buffer, 'data' event or pipe bookkeeping per read.
      // A write the kernel took whole leaves the buffer free for the next read; one it did not
      // still points into it, so reading stops until the client's socket has sent it all.
      let waitingForClient = false;
      const sent = () => {
        if (!waitingForClient || client.writableLength > 0) return;
        waitingForClient = false;
        upstream.resume();
      };
      // Node asks `nextRead` for the buffer of each next read, after `fromServer`: a new size takes
      // effect at once, and a buffer a write still points into is left to that write.
      let readBuffer = Buffer.allocUnsafe(SMALL_READ);
      let smallReads = 0;
      const nextRead = () => readBuffer;
      const fromServer = (length: number, buffer: Uint8Array): boolean => {
        client.write(buffer.subarray(0, length), sent);
        if (buffer.length === SMALL_READ) {
          if (length === SMALL_READ) readBuffer = Buffer.allocUnsafe(LARGE_READ);
        } else if (length > SMALL_READ) smallReads = 0;
        else if (++smallReads >= SHRINK_AFTER) {
          readBuffer = Buffer.allocUnsafe(SMALL_READ);
          smallReads = 0;
        }
        if (client.writableLength === 0) return true;
        waitingForClient = true;
        return false;
      };
      const upstream = net.connect({ host: target.host, port: target.port, noDelay: true, onread: { buffer: nextRead, callback: fromServer } });
      track(upstream);
      let piping = false;
      const connectTimer = setTimeout(() => upstream.destroy(), connectTimeoutMs);
      connectTimer.unref();
      client.once('close', () => upstream.destroy());
      upstream.once('connect', () => {
        clearTimeout(connectTimer);
        if (client.destroyed) return void upstream.destroy();
        piping = true;
        client.off('data', onData);
        for (const chunk of held.splice(0)) upstream.write(chunk);
        // The player's bytes (small packets): written on as they come, the client paused while
        // the server's socket is full.
        client.on('data', (chunk: Buffer) => {
          if (!upstream.write(chunk)) client.pause();
        });
        upstream.on('drain', () => client.resume());
        client.once('end', () => upstream.end());
      });
      upstream.once('close', () => {
        clearTimeout(connectTimer);
        if (piping) {
          // The server's last bytes (a kick's reason) are flushed before the client is closed.
          client.destroySoon();
          return;
        }
        if (!client.destroyed) answer(intent, protocolVersion, words.unreachable(host));
      });
    }
  }

  const server = net.createServer({ noDelay: true }, handle);
  server.on('error', (error) => log('gateway: server error', error));

  return {
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve((server.address() as net.AddressInfo).port);
        });
      }),
    openSockets: () => sockets.size,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}
