import type { ServerResponse } from 'node:http';
import { CONSOLE_EMPTY_EVENT, CONSOLE_LINE_EVENT, COMMANDS_PER_SECOND } from '../../../contract/console.ts';
import type { GameAccessLevel } from '../../../contract/sharing.ts';
import type { Db } from '../../db/client.ts';
import type { ConsoleLine, GameDriver } from '../../../runtime/driver.ts';
import { badRequest, HttpProblem } from '../../lib/problems.ts';
import { sseFrame } from '../../lib/sse.ts';
import type { AuditService } from '../audit/service.ts';
import type { GamesService } from '../games/service.ts';

const HEARTBEAT_MS = 15_000;
/** All a stream sends of the history on (re)connecting: the most a console keeps. */
const HISTORY_LINES = 5000;
/**
 * What a stream may hold unsent before it is closed: a client that reads slower than the console
 * writes reconnects with Last-Event-ID and resumes, instead of this process buffering for it.
 */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Control characters: one console command is one line of visible text. */
const control = /\p{Cc}/u;

interface ConsoleDeps {
  games: GamesService;
  audit: AuditService;
  driver: GameDriver;
  clock: () => Date;
}

/**
 * Game consoles: the lines each game's server printed, live on event streams that resume exactly
 * after the last line a client got, and commands run by the owner through the server's RCON,
 * audited with their author. The lines themselves live with the game (the driver keeps them), so
 * nothing here touches the database but the audit log.
 */
export class ConsoleService {
  private readonly db: Db;
  private readonly deps: ConsoleDeps;
  /** Open streams, with whose they are and of which game, to close those whose access went. */
  private readonly streams = new Map<ServerResponse, { userId: string; gameId: string }>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** When each user's recent commands ran (ms), for the rate of COMMANDS_PER_SECOND. */
  private readonly recent = new Map<string, number[]>();

  constructor(db: Db, deps: ConsoleDeps) {
    this.db = db;
    this.deps = deps;
  }

  /**
   * Streams a game's console on `res`: the kept lines after `afterSeq`, then each new one as it is
   * printed, until the client goes. Subscribed before the history is read, so a line printed in
   * between is sent once, in order.
   */
  async stream(gameId: string, userId: string, res: ServerResponse, afterSeq: number): Promise<void> {
    const game = { id: gameId };
    let sent = afterSeq;
    let held: ConsoleLine[] | null = [];
    const send = (line: ConsoleLine) => {
      if (line.seq <= sent || res.writableEnded) return;
      sent = line.seq;
      res.write(sseFrame(CONSOLE_LINE_EVENT, line, String(line.seq)));
      if (res.writableLength > MAX_BUFFERED_BYTES) res.end();
    };
    const unfollow = this.deps.driver.followConsole(game, (line) => (held ? held.push(line) : send(line)));
    this.streams.set(res, { userId, gameId });
    this.heartbeat ??= setInterval(() => this.beat(), HEARTBEAT_MS).unref();
    res.on('close', () => {
      unfollow();
      this.streams.delete(res);
      if (this.streams.size === 0) {
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
      }
    });
    const history = await this.deps.driver.consoleLines(game, afterSeq, HISTORY_LINES);
    // One write for the whole history rather than one per line.
    res.cork();
    if (history === null) res.write(sseFrame(CONSOLE_EMPTY_EVENT, {}));
    for (const line of history ?? []) send(line);
    for (const line of held) send(line);
    held = null;
    res.uncork();
  }

  private beat() {
    for (const res of this.streams.keys()) res.write(': heartbeat\n\n');
  }

  /**
   * Someone may have lost their access to the game (a grant revoked or lowered, a group left):
   * each open stream of it is checked again, and those of people without access are closed.
   */
  async recheck(gameId: string, levelOf: (userId: string, gameId: string) => Promise<unknown>): Promise<void> {
    for (const [res, open] of this.streams) if (open.gameId === gameId && !(await levelOf(open.userId, gameId))) res.end();
  }

  /**
   * Runs `command` on a running game of `ownerId`'s for `userId` (its owner or someone it is shared
   * with) and records it, with the answer and its author, in the audit log. 429 beyond
   * COMMANDS_PER_SECOND per user, 400 for a control character, 409 unless it runs. `as` is the
   * level they act as, for the game's activity.
   */
  async run(userId: string, ownerId: string, gameId: string, command: string, as?: GameAccessLevel): Promise<{ output: string }> {
    if (control.test(command)) throw badRequest('console.invalidCommand', {}, [{ field: 'command', key: 'field.noControlCharacters' }]);
    this.take(userId);
    const output = await this.deps.games.command(ownerId, gameId, command);
    await this.deps.audit.record(this.db, { actorId: userId, action: 'console.command', entity: 'game', entityId: gameId, after: { as, command, output } });
    return { output };
  }

  /** Counts one command of the user's, or refuses it with the seconds until one more is allowed. */
  private take(userId: string) {
    const now = this.deps.clock().getTime();
    const times = (this.recent.get(userId) ?? []).filter((t) => t > now - 1000);
    if (times.length >= COMMANDS_PER_SECOND) {
      const seconds = Math.max(1, Math.ceil((times[0]! + 1000 - now) / 1000));
      this.recent.set(userId, times);
      throw new HttpProblem(429, 'console.tooManyCommands', { max: COMMANDS_PER_SECOND }, { headers: { 'retry-after': String(seconds) } });
    }
    times.push(now);
    this.recent.set(userId, times);
    // Users who stopped typing are forgotten, so the map holds only the last second's.
    for (const [id, list] of this.recent) if (list.every((t) => t <= now - 1000)) this.recent.delete(id);
  }
}
