import type { ConsoleLine } from './console-log.ts';

/** A player's death as its server told it: who died and, when a player killed them, who. */
export interface Death {
  victim: string;
  killer?: string;
}

/** A Minecraft account's name. */
const name = '[A-Za-z0-9_]{3,16}';

// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;]*[A-Za-z]/g;

/**
 * What a server puts before a message it logs at INFO, up to the `: ` (a death is only ever one):
 * flying-squid's `[INFO]` (its time stamp, which the console drops, may still be there), vanilla's
 * `[12:34:56] [Server thread/INFO]` (a modded server adds its logger, `[minecraft/MinecraftServer]`),
 * Paper's `[12:34:56 INFO]`. A line without it is not a server's log line.
 */
const logLine = new RegExp(
  [
    String.raw`^(?:[A-Z][a-z]+ \d{1,2}(?:st|nd|rd|th) \d{4}, \d{2}:\d{2}:\d{2} )?`,
    String.raw`(?:\[INFO\]|(?:\[\d{2}:\d{2}:\d{2}\] )?\[[^\]/]+/INFO\](?: \[[^\]]+\])?|\[\d{2}:\d{2}:\d{2} INFO\])`,
    String.raw`: (.*)$`,
  ].join(''),
);

/**
 * Vanilla's death messages (its `death.*` texts in English, as servers log them) where a player is
 * credited with the kill; vanilla adds ` using [item]` when the weapon has a name (` using magic` for a potion). The same words
 * name a mob that killed: which names are players is for the caller to know.
 */
const byKiller = new RegExp(`^(${name}) (?:was slain|was shot|was fireballed|was pummeled|was impaled|was blown up|was killed) by (${name})(?: using (?:\\[.+\\]|magic))?$`);

/** Vanilla's death messages without a killer. */
const alone = new RegExp(
  `^(${name}) (?:${[
    'died',
    'was killed',
    'fell from a high place',
    'fell out of the world',
    'hit the ground too hard',
    'drowned',
    'burned to death',
    'went up in flames',
    'tried to swim in lava',
    'starved to death',
    'suffocated in a wall',
    'was struck by lightning',
    'blew up',
    'withered away',
    'froze to death',
    'was squished too much',
  ].join('|')})$`,
);

/**
 * The death a console line tells, or undefined: a line of the local driver's console store (a
 * `ConsoleLine`, or its text) or one printed by vanilla or Paper (as the Agones driver keeps
 * them). Only the server's own INFO lines count: a player's chat (`<name> text`, `[Not Secure]
 * <name> text`), `say` (`[Server] text`) and a command typed in the panel never do, whatever they
 * say, since the whole message must be the death's.
 */
export function parseDeath(line: string | Pick<ConsoleLine, 'text' | 'command'>): Death | undefined {
  if (typeof line !== 'string' && line.command) return undefined;
  const text = (typeof line === 'string' ? line : line.text).replace(ansi, '');
  const message = logLine.exec(text)?.[1];
  if (message === undefined) return undefined;
  const killed = byKiller.exec(message);
  if (killed) return { victim: killed[1]!, killer: killed[2]! };
  const died = alone.exec(message);
  return died ? { victim: died[1]! } : undefined;
}
