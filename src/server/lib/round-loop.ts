/**
 * A job done in rounds until stopped: each round starts `delayMs()` after the previous one ended
 * (so rounds never overlap), a failed round is reported and the next one still comes, and `stop`
 * waits for a round in flight, so a closing app leaves nothing half done behind it.
 */
export class RoundLoop {
  private readonly run: () => Promise<unknown>;
  private readonly delayMs: () => number;
  private readonly onError: (err: unknown) => void;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<unknown> | undefined;
  private running = false;

  constructor(run: () => Promise<unknown>, delayMs: () => number, onError: (err: unknown) => void) {
    this.run = run;
    this.delayMs = delayMs;
    this.onError = onError;
  }

  start(): void {
    this.running = true;
    this.next();
  }

  private next(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.round = this.run()
        .catch(this.onError)
        .finally(() => this.next());
    }, this.delayMs());
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.round;
  }
}
