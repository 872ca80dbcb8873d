import type { GameConsoles } from '../consoles.ts';
import { classify } from '../console-log.ts';
import type { GameSpec } from '../driver.ts';
import { lineSplitter } from '../lines.ts';
import type { Kubernetes } from './kubernetes.ts';
import { aliveStates, namesOf } from './manifests.ts';

/** How long a log follow waits before asking again (no pod yet, or the log ended). */
const logRetryMs = 1000;

/**
 * A log line's time stamp as a key that sorts as the times do: the kubelet writes RFC 3339 with
 * up to nine fraction digits and drops trailing zeros, so the fraction is padded.
 */
function stampKey(stamp: string): string {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(stamp);
  return match ? `${match[1]}.${(match[2] ?? '').padEnd(9, '0')}` : '';
}

/**
 * Follows each game's `minecraft` container log while its GameServer lives, and hands its lines to
 * the game's console. The console is kept on the API's side: the log is the server's output.
 */
export class LogFollower {
  private readonly kubernetes: Kubernetes;
  private readonly consoles: GameConsoles;
  /** The log follows under way, by game, with what stops each. */
  private readonly follows = new Map<string, () => void>();

  constructor(kubernetes: Kubernetes, consoles: GameConsoles) {
    this.kubernetes = kubernetes;
    this.consoles = consoles;
  }

  /**
   * Follows the game's log (`follow=true`, with the kubelet's time stamps) unless it is followed
   * already. A log that ends while the GameServer lives (the container restarted, the API's
   * connection dropped) is asked again from the last line's time stamp, lines up to that one
   * skipped, so none is taken twice. Started by a start, and by a look after this process restarted.
   */
  follow(game: Pick<GameSpec, 'id'>): void {
    if (this.follows.has(game.id)) return;
    const n = namesOf(game);
    const output = this.consoles.of(game);
    const last = output.last;
    // After a restart the last line's own time stands for the kubelet's stamp: kept to the
    // millisecond, so lines of that millisecond count as taken (a later one there would be lost).
    let lastStamp = last ? `${stampKey(last.at).slice(0, -6)}999999` : '';
    let current: { stop(): void } | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      current?.stop();
    };
    this.follows.set(game.id, stop);
    const follow = async () => {
      while (!stopped) {
        const gs = await this.kubernetes.watchedGameServer(n.gameServer).catch(() => undefined);
        if (gs === null || (gs && !aliveStates.has(gs.status?.state ?? 'Creating'))) break;
        const lines = lineSplitter((raw) => {
          const space = raw.indexOf(' ');
          const stamp = stampKey(raw.slice(0, space));
          if (space < 0 || stamp <= lastStamp) return;
          lastStamp = stamp;
          const { level, text } = classify(raw.slice(space + 1), 'stdout');
          output.write(level, text, Date.parse(raw.slice(0, space)));
        });
        const log = this.kubernetes.followLog(n.gameServer, 'minecraft', lastStamp ? `${lastStamp.slice(0, 19)}Z` : undefined, (chunk) => lines.push(chunk));
        current = log;
        await log.ended;
        lines.end();
        if (!stopped) await new Promise((r) => setTimeout(r, logRetryMs));
      }
      if (this.follows.get(game.id) === stop) this.follows.delete(game.id);
    };
    void follow();
  }

  /** Stops following the game's log (it is removed). */
  stop(game: Pick<GameSpec, 'id'>): void {
    this.follows.get(game.id)?.();
    this.follows.delete(game.id);
  }

  /** Stops every follow (this process closes). */
  close(): void {
    for (const stop of this.follows.values()) stop();
    this.follows.clear();
  }
}
