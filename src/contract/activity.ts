import { Type, type Static } from 'typebox';
import { Id, Page } from './common.ts';
import { gameAccessLevels, type GameAccessLevel } from './sharing.ts';

/**
 * A game's activity (docs/architecture.md, "Sharing"): who did what on it, its owner, someone it
 * is shared with, or the platform's staff, read from the audit log. Each action is a key the web
 * app words in the reader's language; its details are the few values worth saying (a kicked
 * player's name, a list, a version, a command).
 */
const gameActivities = [
  'game.start',
  'game.stop',
  'game.restart',
  'game.announce',
  'game.settings',
  'game.icon',
  'game.version',
  'game.share',
  'game.unshare',
  'game.extend',
  'game.autoRenew',
  'game.offer',
  'game.delete',
  'game.rename',
  'players.kick',
  'players.list',
  'players.group',
  'whitelist.toggle',
  'console.command',
  'backup.create',
  'backup.update',
  'backup.delete',
  'backup.restore',
  'backup.link',
  'backup.settings',
  'world.upload',
  'schedule.create',
  'schedule.update',
  'schedule.delete',
  'schedule.run',
] as const;
export type GameActivity = (typeof gameActivities)[number];

/**
 * The level each action on a game needs, wherever it is asked for: each route of the panel declares
 * the level of its activity (the guard refuses to register one that disagrees), and a console
 * command doing the same thing (`stop`, `op`, `whitelist on`…) needs the same level. The staff's
 * extension of a game is no one's on the game itself.
 */
export const activityLevels = {
  'game.start': 'COADMIN',
  'game.stop': 'COADMIN',
  'game.restart': 'COADMIN',
  'game.announce': 'MODERATOR',
  'game.settings': 'COADMIN',
  'game.icon': 'COADMIN',
  'game.version': 'COADMIN',
  'game.share': 'OWNER',
  'game.unshare': 'OWNER',
  'game.autoRenew': 'OWNER',
  'game.offer': 'OWNER',
  'game.delete': 'OWNER',
  'game.rename': 'OWNER',
  'players.kick': 'MODERATOR',
  'players.list': 'MODERATOR',
  'players.group': 'MODERATOR',
  'whitelist.toggle': 'MODERATOR',
  'console.command': 'MODERATOR',
  'backup.create': 'COADMIN',
  'backup.update': 'COADMIN',
  'backup.delete': 'OWNER',
  'backup.restore': 'COADMIN',
  'backup.link': 'COADMIN',
  'backup.settings': 'COADMIN',
  'world.upload': 'COADMIN',
  'schedule.create': 'COADMIN',
  'schedule.update': 'COADMIN',
  'schedule.delete': 'COADMIN',
  'schedule.run': 'COADMIN',
} as const satisfies Record<Exclude<GameActivity, 'game.extend'>, GameAccessLevel>;

/** The values an activity line may say, from the request that made it. */
export const activityDetailKeys = ['name', 'type', 'action', 'enabled', 'autoRenew', 'version', 'restart', 'role', 'command', 'task', 'addressName'] as const;

export const GameActivityEntry = Type.Object({
  id: Id,
  at: Type.String({ format: 'date-time' }),
  action: Type.String({ description: `What was done: ${gameActivities.join(', ')}; a client words the ones it does not know as they are` }),
  /** Who: a player's name; empty for the platform's staff, who act as the platform. */
  actorName: Type.String(),
  by: Type.Enum([...gameAccessLevels, 'SHARED', 'STAFF'] as const, {
    description: 'OWNER, the role the person acted as (VIEWER, MODERATOR, COADMIN), SHARED when that role was not recorded, or STAFF for the platform’s staff',
  }),
  detail: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
});
export type GameActivityEntry = Static<typeof GameActivityEntry>;
export const GameActivityPage = Page(GameActivityEntry);
