import { afterEach, describe, expect, it, vi } from 'vitest';
import { RoundLoop } from './round-loop.ts';

describe('RoundLoop', () => {
  afterEach(() => vi.useRealTimers());

  it('runs rounds one after the other, goes on after a failure, and stops once the round in flight ends', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let rounds = 0;
    let finish: () => void = () => {};
    const loop = new RoundLoop(
      () => {
        rounds++;
        if (rounds === 1) return Promise.reject(new Error('first round broke'));
        return new Promise<void>((resolve) => (finish = resolve));
      },
      () => 1000,
      (err) => errors.push(err),
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(999);
    expect(rounds).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(errors).toEqual([new Error('first round broke')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(rounds).toBe(2);
    // The second round is still running: no third one starts beside it.
    await vi.advanceTimersByTimeAsync(5000);
    expect(rounds).toBe(2);

    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(rounds).toBe(2);
  });

  it('runs a round at once when woken between rounds, and right after the one in flight when woken during it', async () => {
    vi.useFakeTimers();
    const started: number[] = [];
    let finish: () => void = () => {};
    const loop = new RoundLoop(
      () => {
        started.push(Date.now());
        return new Promise<void>((resolve) => (finish = resolve));
      },
      () => 10_000,
      () => {},
    );
    const t0 = Date.now();
    loop.start();
    loop.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([t0]);
    // Woken twice during the round: one more round, as soon as it ends, not two.
    loop.wake();
    loop.wake();
    await vi.advanceTimersByTimeAsync(300);
    expect(started).toHaveLength(1);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([t0, t0 + 300]);
    finish();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(started).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toHaveLength(3);
    finish();
    await loop.stop();
    loop.wake();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(started).toHaveLength(3);
  });
});
