/**
 * Plain values of the contract, in a module without schemas: the game server's launcher
 * (src/runtime/minecraft) reads these, and loading typebox and the schemas there would cost every
 * idle server about 20 MB (docs/architecture.md, "Game runtime").
 */

export const MC_NAME_PATTERN = '^[A-Za-z0-9_]{3,16}$';

/**
 * What a game runs with when its owner never set it: vanilla's, but for the view distance, 6
 * chunks rather than 10 (flying-squid generates chunks on the game's one thread: 169 columns for
 * a first join rather than 441), passed to every server so the Settings page shows what runs.
 */
/** `sleepAfterMinutes`: a server with nobody on it for this long sleeps (0: never; docs/architecture.md, "Sleeping and waking"). */
export const settingDefaults = { pvp: true, viewDistance: 6, spawnProtection: 16, allowFlight: false, sleepAfterMinutes: 10 } as const;

/** The observed status of a game's server. These lists feed both the database columns and the validators. */
export const gameStatuses = ['CREATED', 'STARTING', 'RUNNING', 'STOPPING', 'STOPPED', 'CRASHED', 'EXPIRED', 'SLEEPING'] as const;
export type GameStatus = (typeof gameStatuses)[number];
/** What the owner wants; the reconciler drives the observed status toward it. */
export const desiredStates = ['running', 'stopped'] as const;
