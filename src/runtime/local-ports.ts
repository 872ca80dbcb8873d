import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { NoCapacityError } from './driver.ts';
import type { StoredConfig } from './minecraft/server-config.ts';

/** A game's two ports: the one players connect to, and RCON's on the loopback. */
export interface Ports {
  port: number;
  rconPort: number;
}

/** Whether nothing else on the machine listens on the port, on any address (as the servers bind). */
async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

/**
 * The local driver's ports: a game port and a loopback RCON port from the configured range, taken
 * at each start and given back when the process ends, so the range bounds how many games run at
 * once, not how many exist. A game gets its previous ports again when they are free, so its
 * address rarely changes; a new game avoids the ports others ran on last while others are free.
 */
export class LocalPorts {
  private readonly range: { from: number; to: number };
  private readonly gamesDir: string;
  /** What a game's folder says of its last start (its config file), or nothing. */
  private readonly readPrevious: (dir: string) => Partial<StoredConfig>;
  /** Ports of the servers this process launched, from their start until their process ends. */
  private readonly held = new Map<string, Ports>();
  /**
   * The ports each game last ran on, read from the folders once: a new game avoids them while
   * others are free, so a stopped game finds its address again when it starts.
   */
  private lastPorts: Map<string, Ports> | undefined;
  /** Starts take ports one at a time, so two games never get the same. */
  private allocating: Promise<unknown> = Promise.resolve();

  constructor(range: { from: number; to: number }, gamesDir: string, readPrevious: (dir: string) => Partial<StoredConfig>) {
    this.range = range;
    this.gamesDir = gamesDir;
    this.readPrevious = readPrevious;
  }

  /** Whether one more server could get ports now: a look, not a reservation. */
  async hasRoom(): Promise<boolean> {
    return (await this.serialized(() => this.choosePorts(undefined))) !== null;
  }

  /**
   * Takes ports for the game until `release`; null when they are held for it already (another
   * start of it got here first). Rejects with NoCapacityError when the range is full.
   */
  take(gameId: string): Promise<Ports | null> {
    return this.serialized(async () => {
      if (this.held.has(gameId)) return null;
      const chosen = await this.choosePorts(gameId);
      if (!chosen) {
        const { from, to } = this.range;
        throw new NoCapacityError(`no free ports left in the game port range ${from}-${to}: as many games run as it allows`);
      }
      this.held.set(gameId, chosen);
      this.lastPorts?.set(gameId, chosen);
      return chosen;
    });
  }

  /** Gives the game's ports back, if they are still the ones it took. */
  release(gameId: string, ports: Ports): void {
    if (this.held.get(gameId) === ports) this.held.delete(gameId);
  }

  /** Forgets where a removed game ran last. */
  forget(gameId: string): void {
    this.lastPorts?.delete(gameId);
  }

  /** Runs `task` after the port choices before it, so two never pick the same free ports. */
  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const next = this.allocating.then(task);
    this.allocating = next.catch(() => {});
    return next;
  }

  /**
   * Free ports for a game: those it ran on last when nobody holds them, else the first free ones,
   * taking ports another game ran on last only when no other is left. Null when the range is full.
   */
  private async choosePorts(gameId: string | undefined): Promise<Ports | null> {
    const { from, to } = this.range;
    const held = new Set([...this.held.values()].flatMap((p) => [p.port, p.rconPort]));
    this.lastPorts ??= this.readLastPorts();
    const own = gameId === undefined ? undefined : this.lastPorts.get(gameId);
    const othersLast = new Set([...this.lastPorts].filter(([id]) => id !== gameId).flatMap(([, p]) => [p.port, p.rconPort]));
    const checked = new Map<number, boolean>();
    const usable = async (p: number, besides: number[]) => {
      if (p < from || p > to || held.has(p) || besides.includes(p)) return false;
      if (!checked.has(p)) checked.set(p, await portFree(p));
      return checked.get(p)!;
    };
    const pick = async (preferred: number | undefined, besides: number[]): Promise<number | undefined> => {
      if (preferred !== undefined && (await usable(preferred, besides))) return preferred;
      for (const avoidOthers of [true, false]) {
        for (let p = from; p <= to; p++) {
          if (avoidOthers && othersLast.has(p)) continue;
          if (await usable(p, besides)) return p;
        }
      }
      return undefined;
    };
    const port = await pick(own?.port, []);
    if (port === undefined) return null;
    const rconPort = await pick(own?.rconPort, [port]);
    return rconPort === undefined ? null : { port, rconPort };
  }

  private readLastPorts(): Map<string, Ports> {
    const last = new Map<string, Ports>();
    if (!fs.existsSync(this.gamesDir)) return last;
    for (const id of fs.readdirSync(this.gamesDir)) {
      const { port, rconPort } = this.readPrevious(path.join(this.gamesDir, id));
      if (port && rconPort) last.set(id, { port, rconPort });
    }
    return last;
  }
}
