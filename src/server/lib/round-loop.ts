/**
 * A job done in rounds until stopped: each round starts `delayMs()` after the previous one ended
 * (so rounds never overlap), a failed round is reported and the next one still comes, and `stop`
 * waits for a round in flight, so a closing app leaves nothing half done behind it. `wake` asks
 * for a round now rather than at the end of the pause: one woken during a round runs right after it.
 */
export class RoundLoop {
  private readonly run: () => Promise<unknown>;
  private readonly delayMs: () => number;
  private readonly onError: (err: unknown) => void;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<unknown> | undefined;
  private running = false;
  /** Woken during a round: the next one comes at once. */
  private again = false;

  constructor(run: () => Promise<unknown>, delayMs: () => number, onError: (err: unknown) => void) {
    this.run = run;
    this.delayMs = delayMs;
    this.onError = onError;
  }

  start(): void {
    this.running = true;
    this.next(this.delayMs());
  }

  /** A round as soon as possible: now between rounds, right after the one in flight otherwise. */
  wake(): void {
    if (!this.running) return;
    if (this.round) this.again = true;
    else this.next(0);
  }

  private next(ms: number): void {
    clearTimeout(this.timer);
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.round = this.run()
        .catch(this.onError)
        .finally(() => {
          this.round = undefined;
          const soon = this.again;
          this.again = false;
          this.next(soon ? 0 : this.delayMs());
        });
    }, ms);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.round;
  }
}
