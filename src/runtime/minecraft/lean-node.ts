/**
 * An idle server's memory (docs/architecture.md, "Game runtime"): V8 keeps its heap small and
 * collects more often, a young generation of 1 MB per semi-space instead of 16, one GC helper
 * thread, and no Maglev, whose compilations leave tens of MB in malloc's arenas (TurboFan still
 * optimises world generation). About 222 MB → 115 MB of RSS, for 1 % of a core when idle.
 */
export const leanServerFlags = ['--optimize-for-size', '--max-semi-space-size=1', '--v8-pool-size=1', '--no-maglev'] as const;

/** Two malloc arenas rather than one per thread: freed memory is reused instead of held. */
export const leanServerEnv = { MALLOC_ARENA_MAX: '2' } as const;
