import { activityLevels } from '../../../contract/activity.ts';
import { playerListLevels, type PlayerAction, type PlayerListType } from '../../../contract/games.ts';
import { allows, higher, type GameAccessLevel } from '../../../contract/sharing.ts';
import { MC_NAME_PATTERN } from '../../../contract/values.ts';
import type { FieldProblem } from '../../lib/problems.ts';
import { listCommands } from '../games/runtime.ts';

/**
 * What a console command does, in the panel's words, so that it needs what the panel's action
 * needs and leaves the platform knowing what the panel would know:
 * - `stop` is the panel's stop (the server is wanted stopped, not restarted as a crash);
 * - a player list change (`op`, `whitelist add`, `ban`…) is kept in the panel's list, so the next
 *   start keeps it and the panel shows it; without a valid name it is only run, and the server
 *   says what is wrong;
 * - `whitelist on|off` is the panel's whitelist switch;
 * - commands that change what the Settings page sets are the settings';
 * - anything else is a plain console command (say, kick, time, weather, tp…).
 */
export type ConsoleIntent =
  | { activity: 'game.stop' }
  | { activity: 'players.list'; type: PlayerListType; action: PlayerAction; name?: string }
  | { activity: 'whitelist.toggle'; enabled: boolean }
  | { activity: 'game.settings' }
  | { activity: 'console.command' };

/**
 * Commands that change what the Settings page sets (the MOTD, the difficulty, the game mode of
 * newcomers) or the world's saving, which backups rely on.
 */
const settingsCommands = new Set(['motd', 'difficulty', 'diff', 'defaultgamemode', 'gamerule', 'setidletimeout', 'save-off', 'save-on']);

/** The player list commands, from the ones the platform itself sends to apply a list: words → list and change. */
const listChanges = Object.entries(listCommands).flatMap(([type, byAction]) =>
  Object.entries(byAction).map(([action, text]) => ({ words: text.split(' '), type: type as PlayerListType, action: action as PlayerAction })),
);

const minecraftName = new RegExp(MC_NAME_PATTERN);

/** Control characters: one console command is one line of visible text. */
const control = /\p{Cc}/u;
/**
 * Invisible and direction-changing characters (format characters such as U+202E, U+200B and the
 * BOM; the line and paragraph separators): what a command shows would not be what it does, and
 * other viewers' consoles would show it reversed or hidden.
 */
const invisible = /[\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * What is wrong with a command's text, for the field `command`, or undefined when it is one line
 * of visible text: the console's check, and the scheduled commands' when they are saved.
 */
export function commandTextProblem(command: string): FieldProblem | undefined {
  if (control.test(command)) return { field: 'command', key: 'field.noControlCharacters' };
  const hidden = invisible.exec(command);
  if (!hidden) return undefined;
  const code = hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return { field: 'command', key: 'field.noInvisibleCharacters', params: { code } };
}

/** The command's words, without the leading slash and the `minecraft:` namespace vanilla accepts. */
function wordsOf(command: string): string[] {
  const words = command.trim().replace(/^\//, '').split(/\s+/);
  words[0] = (words[0] ?? '').toLowerCase().replace(/^minecraft:/, '');
  return words;
}

/** The command's name, as the refusal says it. */
export function commandName(command: string): string {
  return wordsOf(command)[0] ?? '';
}

export function intentOf(command: string): ConsoleIntent {
  const words = wordsOf(command);
  const verb = words[0]!;
  // `execute … run <command>` does what its command does. A player may be named `run`, so every
  // word `run` is taken as the start of a command, and the one needing the most counts.
  if (verb === 'execute') {
    const runs = words.flatMap((word, i) => (i > 0 && word.toLowerCase() === 'run' ? [intentOf(words.slice(i + 1).join(' '))] : []));
    return runs.reduce<ConsoleIntent>((most, intent) => (allows(levelFor(most), levelFor(intent)) ? most : intent), { activity: 'console.command' });
  }
  if (verb === 'stop') return { activity: 'game.stop' };
  if (verb === 'whitelist' && ['on', 'off'].includes(words[1]?.toLowerCase() ?? '')) return { activity: 'whitelist.toggle', enabled: words[1]!.toLowerCase() === 'on' };
  const change = listChanges.find((c) => c.words.every((word, i) => words[i]?.toLowerCase() === word));
  if (change) {
    const name = words[change.words.length];
    return { activity: 'players.list', type: change.type, action: change.action, ...(name && minecraftName.test(name) ? { name } : {}) };
  }
  if (settingsCommands.has(verb)) return { activity: 'game.settings' };
  return { activity: 'console.command' };
}

/** Whether someone at level `as` may send `command`: whether they may do in the panel what it does. */
export function mayRun(command: string, as: GameAccessLevel): boolean {
  return allows(as, levelFor(intentOf(command)));
}

/** The level a command needs: its action's in the panel, and a list's own for a list change. */
export function levelFor(intent: ConsoleIntent): GameAccessLevel {
  if (intent.activity === 'players.list') return higher(activityLevels['players.list'], playerListLevels[intent.type]);
  return activityLevels[intent.activity];
}
