import type { Socket } from 'node:net';
import { packetWriter, readStatus, type Intent } from './packets.ts';
import type { GatewayText } from './words.ts';

/**
 * The gateway answering a client itself, when no game's server can: a server list entry whose
 * MOTD says why (then the ping's pong, as a server does, so the list shows a latency), or a
 * login refused with the reason. Returns what to do with each of the client's next packets.
 */
export function answerLocally(client: Socket, intent: Intent, protocolVersion: number, text: GatewayText, timeoutMs: number): (frame: Buffer) => void {
  // A client that never asks, or never ends its side, is not kept.
  const timer = setTimeout(() => client.destroy(), timeoutMs);
  timer.unref();
  client.once('close', () => clearTimeout(timer));

  if (intent === 'login') {
    const out = packetWriter('login', client);
    out.write('disconnect', { reason: JSON.stringify({ text: text.reason }) });
    out.end();
    // Whatever the client still sends (its login start) is read and dropped until it closes.
    return () => {};
  }

  const out = packetWriter('status', client);
  let answered = false;
  return (frame) => {
    const packet = readStatus(frame);
    if (!packet) return void client.destroy();
    if (packet.name === 'ping_start' && !answered) {
      answered = true;
      const status = {
        // The client's own protocol, so the list does not call the entry outdated.
        version: { name: text.version ?? 'BlockHost', protocol: protocolVersion },
        players: { max: 0, online: 0 },
        description: { text: text.motd },
      };
      out.write('server_info', { response: JSON.stringify(status) });
      return;
    }
    if (packet.name === 'ping' && answered) {
      out.write('ping', { time: packet.time });
      out.end();
      return;
    }
    client.destroy();
  };
}
