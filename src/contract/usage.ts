import { Type, type Static } from 'typebox';
import { DateTime } from './common.ts';

/**
 * A game's usage history (docs/architecture.md, "Usage history"): samples taken each minute while
 * it runs, and what happened to it on the same timeline. These lists feed both the database
 * columns and the validators.
 */
const usageWindows = ['24h', '7d'] as const;
export type UsageWindow = (typeof usageWindows)[number];
/** Status changes the reconciler records; backups come from the backups themselves. */
export const gameEventKinds = ['start', 'stop', 'crash'] as const;
const usageEventKinds = [...gameEventKinds, 'backup'] as const;

export const UsageQuery = Type.Object(
  { window: Type.Optional(Type.Enum(usageWindows, { description: 'How far back: 24h (a point a minute) or 7d (a point per 10 minutes, averaged). Default 24h' })) },
  { additionalProperties: false },
);
export type UsageQuery = Static<typeof UsageQuery>;

export const UsagePoint = Type.Object({
  at: DateTime,
  players: Type.Integer({ minimum: 0, description: 'Players online (the most seen in the point, over 7 days)' }),
  memoryMb: Type.Number({ minimum: 0, description: 'Resident memory of the server process, in MB' }),
  memoryPercent: Type.Number({ minimum: 0, description: 'That memory as a share of the package’s RAM, in percent (may exceed 100)' }),
  cpuPercent: Type.Number({ minimum: 0, description: 'CPU used, in percent of one core (200 = two full cores)' }),
});
export type UsagePoint = Static<typeof UsagePoint>;

export const UsageEvent = Type.Object({
  at: DateTime,
  kind: Type.Enum(usageEventKinds, { description: 'start: the server became reachable; stop: it stopped; crash: it crashed or did not start; backup: a backup of its world was taken' }),
  detail: Type.Union([Type.String({ maxLength: 300 }), Type.Null()], { description: 'A crash’s reason, or the backup’s kind and status (e.g. NIGHTLY READY)' }),
});
export type UsageEvent = Static<typeof UsageEvent>;

export const Usage = Type.Object({
  window: Type.Enum(usageWindows),
  from: DateTime,
  to: DateTime,
  /** The package's RAM, what memoryPercent is a share of. */
  ramMb: Type.Integer({ minimum: 0 }),
  sampleSeconds: Type.Integer({ minimum: 1, description: 'How often a running server is sampled: a page showing the history reads it again at that pace' }),
  /** Oldest first; none while the server did not run. */
  points: Type.Array(UsagePoint),
  /** Oldest first. */
  events: Type.Array(UsageEvent),
});
export type Usage = Static<typeof Usage>;
