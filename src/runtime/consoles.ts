import path from 'node:path';
import { ConsoleLog, consoleFile, type ConsoleLine, type ConsoleLogOptions } from './console-log.ts';
import type { GameSpec } from './driver.ts';

/**
 * The consoles of every game, kept by the runtime whatever the driver: a driver only writes into
 * a game's log (`of`) the lines its server printed and its own (a start, a stop, a crash); the
 * platform reads the history, follows new lines and adds the commands run from the panel here.
 * Each log is read from `folderOf(game)`'s `console.jsonl` the first time it is asked for.
 */
export class GameConsoles {
  private readonly logs = new Map<string, ConsoleLog>();
  private readonly folderOf: (game: Pick<GameSpec, 'id'>) => string;
  private readonly options: ConsoleLogOptions;

  constructor(folderOf: (game: Pick<GameSpec, 'id'>) => string, options: ConsoleLogOptions = {}) {
    this.folderOf = folderOf;
    this.options = options;
  }

  /** The game's log, where its driver writes. */
  of(game: Pick<GameSpec, 'id'>): ConsoleLog {
    let output = this.logs.get(game.id);
    if (!output) {
      output = new ConsoleLog(path.join(this.folderOf(game), consoleFile), this.options);
      this.logs.set(game.id, output);
    }
    return output;
  }

  /**
   * The kept lines after `afterSeq`, oldest first, at most `limit`; null when the game's server
   * never printed anything (it never started).
   */
  lines(game: Pick<GameSpec, 'id'>, afterSeq: number, limit: number): ConsoleLine[] | null {
    const output = this.of(game);
    return output.started ? output.after(afterSeq, limit) : null;
  }

  /** Hands `listener` each line numbered from now on, until the function it returns is called. */
  follow(game: Pick<GameSpec, 'id'>, listener: (line: ConsoleLine) => void): () => void {
    return this.of(game).follow(listener);
  }

  /**
   * Adds the platform's lines: a command run from the panel and its answer, so the history keeps
   * them whatever the server prints of them. They count toward the flood control as printed lines
   * do. On Agones, only this replica's followers see them, as only this replica keeps its console.
   */
  note(game: Pick<GameSpec, 'id'>, lines: Pick<ConsoleLine, 'level' | 'text' | 'command'>[]): void {
    const output = this.of(game);
    for (const line of lines) output.echo(line.level, line.text, line.command);
  }

  /** Drops the game's log from memory (the game is removed; its driver removes the file). */
  forget(game: Pick<GameSpec, 'id'>): void {
    this.logs.delete(game.id);
  }
}
