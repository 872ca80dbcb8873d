/**
 * The world operations of each game, one at a time, for every driver: a stopped game's backup or
 * restore runs after the one before it, whatever that one ended with, and a start waits for them
 * so a server never loads a world a tool is still writing. While a start waits or launches, the
 * game counts as starting, which a world operation that comes meanwhile may refuse to run under.
 */
export class WorldQueue {
  /** The last world operation queued for each game, until it ends. */
  private readonly runs = new Map<string, Promise<unknown>>();
  private readonly starting = new Set<string>();

  /** Whether a start of the game waits for its world operations or launches its server now. */
  isStarting(gameId: string): boolean {
    return this.starting.has(gameId);
  }

  /** Launches once the game's queued world operations are done, the game counting as starting meanwhile. */
  async start<T>(gameId: string, launch: () => Promise<T>): Promise<T> {
    this.starting.add(gameId);
    try {
      await this.runs.get(gameId)?.catch(() => {});
      return await launch();
    } finally {
      this.starting.delete(gameId);
    }
  }

  /** Runs `operation` after the game's world operations queued before it, whatever they ended with. */
  run<T>(gameId: string, operation: () => Promise<T>): Promise<T> {
    const previous = this.runs.get(gameId) ?? Promise.resolve();
    const run = previous.catch(() => {}).then(operation);
    this.runs.set(gameId, run);
    const forget = () => {
      if (this.runs.get(gameId) === run) this.runs.delete(gameId);
    };
    run.then(forget, forget);
    return run;
  }
}
