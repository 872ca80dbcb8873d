import { Type, type Static } from 'typebox';

/**
 * A game's console (`GET /v1/game/{id}/console/stream`, `POST /v1/game/{id}/console`): the lines
 * its server printed, numbered, and commands run through the server's own command system.
 */
export const CONSOLE_LINE_EVENT = 'line';
/** Sent first when the game's server never started: there is no line yet. */
export const CONSOLE_EMPTY_EVENT = 'never-started';

const consoleLevels = ['info', 'warn', 'error'] as const;
const COMMAND_MAX_LENGTH = 256;
/** Commands one user may run per second, on all their games. */
export const COMMANDS_PER_SECOND = 10;

export const ConsoleLine = Type.Object({
  seq: Type.Integer({ minimum: 1, description: 'The line’s number in the game’s console, from 1; the event id' }),
  at: Type.String({ format: 'date-time' }),
  level: Type.Enum(consoleLevels),
  text: Type.String({
    description: 'As printed: Minecraft § and & colour codes and ANSI escapes included, to render as styled text (never as HTML)',
  }),
  omitted: Type.Optional(Type.Integer({ minimum: 1, description: 'Set on the marker line standing for the lines a flood had collapsed: how many' })),
  command: Type.Optional(Type.Boolean({ description: 'Set on a command run from the panel (its text is the command), kept before its answer' })),
});
export type ConsoleLine = Static<typeof ConsoleLine>;

export const ConsoleCommand = Type.Object(
  { command: Type.String({ minLength: 1, maxLength: COMMAND_MAX_LENGTH, description: 'A server command, with or without its leading slash; no control characters' }) },
  { additionalProperties: false },
);
export type ConsoleCommand = Static<typeof ConsoleCommand>;

export const ConsoleOutput = Type.Object({ output: Type.String({ description: 'What the server answered (may be empty)' }) });
export type ConsoleOutput = Static<typeof ConsoleOutput>;
