/**
 * What the world agent (world-agent.ts) and the agones driver agree on. The agent answers an
 * accepted call at once with 200 and JSON lines: `{ progress }` (0 to 1) as a backup moves, an
 * empty line every `heartbeatMs`, so a caller tells a long archive from a dead pod by the silence,
 * and last the result or `{ error, detail }`. A WorldArchiveError keeps its code as `error`; the
 * agent's own codes are below. A call refused before any work answers its status and one
 * `{ error, detail }`.
 */
export const agentDefaultPort = 8765;
export const heartbeatMs = 10_000;

export const agentErrors = {
  /** No `world/level.dat` on the volume: the server never ran, nothing to back up. */
  noWorld: 'world.missing',
  /** Another backup or restore of this world is under way. */
  busy: 'agent.busy',
  /** A restore asked of the agent beside a running server. */
  readOnly: 'agent.read-only',
  badRequest: 'agent.bad-request',
  unauthorized: 'agent.unauthorized',
  failed: 'failed',
} as const;

export type AgentErrorCode = (typeof agentErrors)[keyof typeof agentErrors];
