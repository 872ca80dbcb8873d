import { createRequire } from 'node:module';
import type { Transform } from 'node:stream';
import minecraftProtocol from 'minecraft-protocol';

/**
 * The Minecraft wire format as the gateway reads and writes it, all of it from minecraft-protocol:
 * its splitter cuts frames (the varint length) and recognises the legacy 0xFE ping, its compiled
 * protocol reads the handshake and the status packets, its serializer and framer write our answers.
 * Only the legacy ping's answer is written by hand, as the library's own server does (its function
 * is not exported).
 */

/** minecraft-protocol's framing, which its index does not export (typed here, plain CommonJS). */
interface Splitter extends Transform {
  recognizeLegacyPing: boolean;
}
interface Framing {
  createSplitter(): Splitter;
  createFramer(): Transform;
}
const framing = createRequire(import.meta.url)('minecraft-protocol/src/transforms/framing.js') as Framing;

/** The handshake, status and login-disconnect packets are the same in every version the platform runs. */
const WIRE_VERSION = '1.21.4';

/**
 * The longest handshake we read: a 255-character host in UTF-8 (and Forge's marker after it), the
 * protocol number, the port and the next state. Anything longer is not a Minecraft client.
 */
export const MAX_HANDSHAKE_BYTES = 1100;

export type Intent = 'status' | 'login';

export type FirstPacket = { kind: 'legacy-ping' } | { kind: 'handshake'; intent: Intent; protocolVersion: number; host: string };

interface Parsed {
  data: { name: string; params: Record<string, unknown> };
  metadata: { size: number };
}
interface Parser {
  parsePacketBuffer(buffer: Buffer): Parsed;
}

/** One of the library's states (its type is an enum the CommonJS code only has as an object). */
type State = (typeof minecraftProtocol.states)[keyof typeof minecraftProtocol.states];
const { HANDSHAKING, STATUS, LOGIN } = minecraftProtocol.states;

const parsers = new Map<State, Parser>();
function parser(state: State): Parser {
  let p = parsers.get(state);
  if (!p) {
    p = minecraftProtocol.createDeserializer({ state, isServer: true, version: WIRE_VERSION, customPackets: {} }) as Parser;
    parsers.set(state, p);
  }
  return p;
}

/** A frame read whole by the protocol's own parser, or null when it is not one (trailing bytes included). */
function parse(state: State, frame: Buffer): Parsed['data'] | null {
  try {
    const packet = parser(state).parsePacketBuffer(frame);
    return packet.metadata.size === frame.length ? packet.data : null;
  } catch {
    return null;
  }
}

/** A splitter for a new connection, which takes a first 0xFE byte for a legacy ping. */
export function newSplitter(): Splitter {
  const splitter = framing.createSplitter();
  splitter.recognizeLegacyPing = true;
  return splitter;
}

/**
 * The host a player typed, as a name to route: Forge's `\0FML…\0` marker (and anything else after a
 * NUL) cut off, a trailing dot dropped (a fully qualified name), lower-cased.
 */
function hostName(serverHost: string): string {
  const nul = serverHost.indexOf('\0');
  const host = nul === -1 ? serverHost : serverHost.slice(0, nul);
  return host.replace(/\.$/, '').toLowerCase();
}

/** The connection's first frame: a handshake (status or login), a legacy ping, or null for anything else. */
export function readFirst(frame: Buffer): FirstPacket | null {
  const packet = parse(HANDSHAKING, frame);
  if (!packet) {
    // The splitter hands a legacy ping over whole, however many bytes its client sent after the 0xFE.
    return frame[0] === 0xfe && frame[1] === 0x01 ? { kind: 'legacy-ping' } : null;
  }
  if (packet.name === 'legacy_server_list_ping') return { kind: 'legacy-ping' };
  if (packet.name !== 'set_protocol') return null;
  const { protocolVersion, serverHost, nextState } = packet.params as { protocolVersion: number; serverHost: string; nextState: number };
  // 3 is a transfer (1.20.5+), a login sent on from another server.
  const intent = nextState === 1 ? 'status' : nextState === 2 || nextState === 3 ? 'login' : null;
  if (!intent) return null;
  return { kind: 'handshake', intent, protocolVersion, host: hostName(serverHost) };
}

/**
 * The player's name in a login start. Its fields after the name changed across versions (a key,
 * a UUID), but it always opens with the packet id 0 and the name, a string of at most 16
 * characters: that prefix is read here by hand, so every version's login start is understood.
 */
export function readLoginName(frame: Buffer): string | null {
  if (frame[0] !== 0x00) return null;
  const length = frame[1];
  // At most 16 characters of [A-Za-z0-9_], so one byte of length and one byte each.
  if (length === undefined || length < 1 || length > 16 || frame.length < 2 + length) return null;
  const name = frame.subarray(2, 2 + length).toString('utf8');
  return /^[A-Za-z0-9_]{1,16}$/.test(name) ? name : null;
}

/** A packet of the status state (a request for the status, a ping), or null. */
export function readStatus(frame: Buffer): { name: 'ping_start' } | { name: 'ping'; time: unknown } | null {
  const packet = parse(STATUS, frame);
  if (packet?.name === 'ping_start') return { name: 'ping_start' };
  if (packet?.name === 'ping') return { name: 'ping', time: packet.params.time };
  return null;
}

/** A writer of packets to the client in one state: serialized and framed by the library, piped to `out`. */
export function packetWriter(intent: Intent, out: NodeJS.WritableStream): { write(name: string, params: object): void; end(): void } {
  const serializer = minecraftProtocol.createSerializer({ state: intent === 'status' ? STATUS : LOGIN, isServer: true, version: WIRE_VERSION, customPackets: {} }) as Transform;
  const framer = framing.createFramer();
  serializer.pipe(framer).pipe(out);
  return {
    write: (name, params) => serializer.write({ name, params }),
    end: () => serializer.end(),
  };
}

/**
 * The answer to a legacy (1.6 and older) server list ping: 0xFF, the length in UTF-16 units, then
 * UTF-16BE text. The 1.4–1.6 form (§1, protocol, version, MOTD, players, max) names a protocol no
 * such client speaks, so the list shows the version in red with our line as the MOTD.
 */
export function legacyPingAnswer(motd: string): Buffer {
  const text = ['§1', '127', '1.7+', motd, '0', '0'].join('\0');
  const body = Buffer.from(text, 'utf16le').swap16();
  const head = Buffer.alloc(3);
  head[0] = 0xff;
  head.writeUInt16BE(text.length, 1);
  return Buffer.concat([head, body]);
}
