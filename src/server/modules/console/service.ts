import type { ServerResponse } from 'node:http';
import { CONSOLE_EMPTY_EVENT, CONSOLE_LINE_EVENT, COMMANDS_PER_SECOND } from '../../../contract/console.ts';
import { allows, type GameAccessLevel } from '../../../contract/sharing.ts';
import type { Db } from '../../db/client.ts';
import type { ConsoleLine } from '../../../runtime/console-log.ts';
import type { GameConsoles } from '../../../runtime/consoles.ts';
import { badRequest, conflict, HttpProblem } from '../../lib/problems.ts';
import { sseFrame } from '../../lib/sse.ts';
import { StreamSlots, type OpenStream, type StreamLimits } from '../../lib/stream-slots.ts';
import type { AuditService } from '../audit/service.ts';
import type { GamesService } from '../games/service.ts';
import type { GamePlayersService } from '../games/players.ts';
import type { GameAccessCheck } from '../sharing/access.ts';
import { commandName, commandTextProblem, intentOf, levelFor } from './commands.ts';
import type { AccessScope, EventBus } from '../../events.ts';

const HEARTBEAT_MS = 15_000;
/** All a stream sends of the history on (re)connecting: the most a console keeps. */
const HISTORY_LINES = 5000;
/**
 * What a stream may hold unsent before it is closed: a client that reads slower than the console
 * writes reconnects with Last-Event-ID and resumes, instead of this process buffering for it.
 */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/**
 * The most of the history a stream sends on (re)connecting: its last lines, within half of what it
 * may hold unsent, so a long history (long lines) opens on its end instead of overflowing the
 * buffer and closing before a line is sent, and lines printed meanwhile still fit behind it.
 */
const HISTORY_BYTES = MAX_BUFFERED_BYTES / 2;
/** An open console stream: whose it is is its key in the slots. */
interface ConsoleStream extends OpenStream {
  gameId: string;
}

interface ConsoleDeps {
  games: GamesService;
  players: GamePlayersService;
  audit: AuditService;
  consoles: GameConsoles;
  clock: () => Date;
  events: EventBus;
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
  /**
   * Open streams, by user, with the game each shows, to close those whose access went; within the
   * same limits as the notification streams (STREAMS_PER_USER, STREAMS_PER_ADDRESS).
   */
  private readonly streams: StreamSlots<ConsoleStream>;
  /** When each user's recent commands ran (ms), for the rate of COMMANDS_PER_SECOND. */
  private readonly recent = new Map<string, number[]>();

  constructor(db: Db, deps: ConsoleDeps, limits: StreamLimits = { perUser: 10, perAddress: 200 }) {
    this.db = db;
    this.deps = deps;
    this.streams = new StreamSlots(limits, ': heartbeat\n\n', HEARTBEAT_MS);
    // Access that ended (a grant revoked or lowered, a group left or deleted, an unfriending, a block)
    // closes the console streams of the people who lost the game, on every replica, at once.
    deps.events.on('sharing.accessLost', ({ scope, levelOf }) => this.recheck(scope, levelOf));
  }

  /**
   * Streams a game's console on the response `open` gives: the kept lines after `afterSeq` (the
   * last of them that fit the buffer), then each new one as it is printed, until the client goes.
   * 429 past the streams `address` may hold; past the user's, their oldest closes. Subscribed
   * before the history is read, so a line printed in between is sent once, in order.
   */
  async stream(gameId: string, userId: string, address: string, open: () => ServerResponse, afterSeq: number): Promise<void> {
    if (!this.streams.admits(address)) throw new HttpProblem(429, 'console.tooManyStreams', {}, { headers: { 'retry-after': '60' } });
    const res = open();
    const game = { id: gameId };
    let sent = afterSeq;
    let held: ConsoleLine[] | null = [];
    const send = (line: ConsoleLine, frame = lineFrame(line)) => {
      if (line.seq <= sent || res.writableEnded) return;
      sent = line.seq;
      res.write(frame);
      if (res.writableLength > MAX_BUFFERED_BYTES) res.end();
    };
    const unfollow = this.deps.consoles.follow(game, (line) => (held ? held.push(line) : send(line)));
    this.streams.add(userId, { res, address, gameId });
    res.on('close', unfollow);
    const history = this.deps.consoles.lines(game, afterSeq, HISTORY_LINES);
    // One write for the whole history rather than one per line.
    res.cork();
    if (history === null) res.write(sseFrame(CONSOLE_EMPTY_EVENT, {}));
    for (const [line, frame] of lastThatFit(history ?? [], HISTORY_BYTES)) send(line, frame);
    for (const line of held) send(line);
    held = null;
    res.uncork();
  }

  /**
   * Some people may have lost their access to some games (a grant revoked or lowered, a group
   * left or deleted, an unfriending or a block): each open stream of theirs on those games (on any
   * game without `gameIds`, of everyone without `userIds`) is checked again, and those of people without access are closed.
   */
  private async recheck(scope: AccessScope, levelOf: (userId: string, gameId: string) => Promise<unknown>): Promise<void> {
    const games = scope.gameIds && new Set(scope.gameIds);
    for (const userId of scope.userIds ?? [...this.streams.users()]) {
      for (const stream of [...this.streams.of(userId)]) {
        if (games && !games.has(stream.gameId)) continue;
        if (!(await levelOf(userId, stream.gameId))) this.streams.close(userId, stream);
      }
    }
  }

  /** Console streams open on this process. */
  get streamCount(): number {
    return this.streams.count;
  }

  /** Ends every stream (shutdown). */
  closeAll(): void {
    this.streams.closeAll();
  }

  /**
   * Runs `command` on a running game of `ownerId`'s for `userId` (its owner or someone it is shared
   * with, at level `as`) and records it, with the answer and its author, in the audit log. 429
   * beyond COMMANDS_PER_SECOND per user, 400 for a control or invisible character, 403 when `as`
   * may not do in the panel what the command does (commands.ts), 409 unless it runs.
   */
  async run(userId: string, access: GameAccessCheck, command: string): Promise<{ output: string }> {
    const problem = commandTextProblem(command);
    if (problem) throw badRequest(problem.params ? 'console.invisibleCharacter' : 'console.invalidCommand', problem.params ?? {}, [problem]);
    this.allow(command, access.level);
    this.take(userId);
    return this.send(userId, access, command);
  }

  /**
   * Runs `command` as `userId` at level `as`, as the console does, without the console's rate: the
   * console's commands and the scheduled ones (their author at their current level, with
   * `scheduleId`). 403 when `as` may not do in the panel what the command does, 409 unless the
   * game runs.
   *
   * What the panel would know of the command, it learns: `stop` is the panel's stop (audited as
   * one), a list change is kept in the panel's list, `whitelist on|off` sets the panel's switch.
   */
  async send(userId: string, access: GameAccessCheck, command: string, scheduleId?: string): Promise<{ output: string }> {
    const { gameId, level: as } = access;
    this.allow(command, as);
    const intent = intentOf(command);
    const { games, players, audit, consoles } = this.deps;
    const by = { as, command, ...(scheduleId ? { scheduleId } : {}) };
    // Checked before a list is changed for a command that could not run.
    const game = await games.get(gameId);
    if (game.status !== 'RUNNING') throw conflict('console.notRunning', { status: game.status });
    if (intent.activity === 'game.stop') {
      // The server is wanted stopped: the reconciler stops it (saving its world) and does not
      // take its end for a crash.
      await games.act(gameId, 'stop');
      consoles.note(game, [{ level: 'info', text: command, command: true }]);
      await audit.record(this.db, { actorId: userId, action: 'game.stop', entity: 'game', entityId: gameId, after: by });
      return { output: '' };
    }
    // Kept by the platform first, so the next start keeps it whatever happens to the command.
    if (intent.activity === 'players.list' && intent.name) await players.patchPlayers(gameId, [intent.name], intent.type, intent.action, { as, live: false });
    if (intent.activity === 'whitelist.toggle') await players.setWhitelist(gameId, intent.enabled, false);
    const output = await games.command(gameId, command);
    await audit.record(this.db, { actorId: userId, action: 'console.command', entity: 'game', entityId: gameId, after: { ...by, output } });
    return { output };
  }

  /** 403 when `as` may not do in the panel what `command` does. */
  private allow(command: string, as: GameAccessLevel): void {
    const needed = levelFor(intentOf(command));
    if (!allows(as, needed)) throw new HttpProblem(403, needed === 'OWNER' ? 'console.forOwner' : 'console.forCoadmins', { command: commandName(command) });
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

function lineFrame(line: ConsoleLine): string {
  return sseFrame(CONSOLE_LINE_EVENT, line, String(line.seq));
}

/** The last of `lines` whose frames add up to at most `bytes`, oldest first, with their frames. */
function lastThatFit(lines: ConsoleLine[], bytes: number): Array<[ConsoleLine, string]> {
  const kept: Array<[ConsoleLine, string]> = [];
  let total = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const frame = lineFrame(lines[i]!);
    total += Buffer.byteLength(frame);
    if (total > bytes) break;
    kept.push([lines[i]!, frame]);
  }
  return kept.reverse();
}
