import path from 'node:path';
import { ConsoleLog, consoleFile, type ConsoleLogOptions } from './console-log.ts';
import type { ConsoleLine, GameSpec } from './driver.ts';

/**
 * The consoles of a driver's games, each read from `folderOf(game)`'s file the first time it is
 * asked for, and what the GameDriver interface answers of them.
 */
export class GameConsoles {
  private readonly logs = new Map<string, ConsoleLog>();
  private readonly folderOf: (game: Pick<GameSpec, 'id'>) => string;
  private readonly options: ConsoleLogOptions;

  constructor(folderOf: (game: Pick<GameSpec, 'id'>) => string, options: ConsoleLogOptions = {}) {
    this.folderOf = folderOf;
    this.options = options;
  }

  of(game: Pick<GameSpec, 'id'>): ConsoleLog {
    let output = this.logs.get(game.id);
    if (!output) {
      output = new ConsoleLog(path.join(this.folderOf(game), consoleFile), this.options);
      this.logs.set(game.id, output);
    }
    return output;
  }

  /** The kept lines after `afterSeq`; null for a game whose server never started. */
  lines(game: Pick<GameSpec, 'id'>, afterSeq: number, limit: number): ConsoleLine[] | null {
    const output = this.of(game);
    return output.started ? output.after(afterSeq, limit) : null;
  }

  follow(game: Pick<GameSpec, 'id'>, listener: (line: ConsoleLine) => void): () => void {
    return this.of(game).follow(listener);
  }

  /** A command run from the panel and its answer (GameDriver.noteConsole), within the flood control. */
  note(game: Pick<GameSpec, 'id'>, lines: Pick<ConsoleLine, 'level' | 'text' | 'command'>[]): void {
    const output = this.of(game);
    for (const line of lines) output.echo(line.level, line.text, line.command);
  }

  forget(game: Pick<GameSpec, 'id'>): void {
    this.logs.delete(game.id);
  }
}
