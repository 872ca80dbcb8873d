import { Rcon } from 'rcon-client';

/**
 * How the platform talks to any Minecraft server, whoever runs it: a Server List Ping for its
 * status and vanilla RCON for commands. Both work the same against flying-squid with our admin
 * plugin, a vanilla or Paper jar, and the itzg/minecraft-server image.
 */
export interface PingStatus {
  version: string;
  motd: string;
  online: number;
  max: number;
}

type Description = string | { text?: string; extra?: Description[] };
function plainText(d: Description | undefined): string {
  if (d === undefined) return '';
  if (typeof d === 'string') return d;
  return (d.text ?? '') + (d.extra ?? []).map(plainText).join('');
}

/** Rejects when nothing answers within `timeoutMs`. */
export async function pingServer(host: string, port: number, timeoutMs = 3000): Promise<PingStatus> {
  // minecraft-protocol (some 300 modules with its dependencies) is loaded at the first ping, before
  // its time counts, not at the start of every process that may ping. It is CommonJS whose `ping`
  // Node cannot see as a named export.
  const { ping } = (await import('minecraft-protocol')).default;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no status answer from ${host}:${port} within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const result = await Promise.race([ping({ host, port, closeTimeout: timeoutMs, noPongTimeout: 500 }), timeout]);
    if (!('players' in result)) {
      // A pre-1.7 answer: no version name, but the rest is there.
      return { version: '', motd: result.motd, online: result.playerCount, max: result.maxPlayers };
    }
    return { version: result.version.name, motd: plainText(result.description as Description), online: result.players.online, max: result.players.max };
  } finally {
    clearTimeout(timer);
  }
}

export interface RconTarget {
  host: string;
  port: number;
  password: string;
}

/** Logs in, runs the commands in order and logs out; rejects when login or a command fails. */
export async function rconCommands(target: RconTarget, commands: string[], timeoutMs = 5000): Promise<string[]> {
  const rcon = new Rcon({ host: target.host, port: target.port, password: target.password, timeout: timeoutMs });
  // rcon-client re-emits socket errors; without a listener an EventEmitter throws them.
  rcon.on('error', () => {});
  await rcon.connect();
  try {
    const answers: string[] = [];
    for (const command of commands) answers.push(await rcon.send(command));
    return answers;
  } finally {
    rcon.end().catch(() => {});
  }
}

/** Names of the players online, read from vanilla's `list` answer. */
export function parseList(answer: string): { online: number; max: number; players: string[] } | null {
  const m = /There are (\d+) of a max(?: of)? (\d+) players online:?\s*(.*)$/s.exec(answer.trim());
  if (!m) return null;
  const players =
    m[3]!.trim() === ''
      ? []
      : m[3]!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  return { online: Number(m[1]), max: Number(m[2]), players };
}
