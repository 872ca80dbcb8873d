import { Type, type Static } from 'typebox';
import { DateTime, Id } from './common.ts';

/**
 * Sharing a game with friends (docs/architecture.md, "Sharing"): the owner grants a friend, or one
 * of their friend groups, a role on it. Each role may do what the one below does, and more:
 * - VIEWER: status, players, console output, usage;
 * - MODERATOR: + kick, whitelist, bans, console commands, announce;
 * - COADMIN: + start, stop, restart, operators, settings, version, backups (take, pin, restore), schedules.
 * `activityLevels` (activity.ts) says it action by action, for the panel and the console alike,
 * and `playerListLevels` (games.ts) list by list.
 * Billing, deleting or unpinning backups, deleting the game, and sharing itself stay the owner's (OWNER).
 */
export const gameRoles = ['VIEWER', 'MODERATOR', 'COADMIN'] as const;
export type GameRole = (typeof gameRoles)[number];
/** What a caller is to a game: one of the roles, or its owner. */
export const gameAccessLevels = [...gameRoles, 'OWNER'] as const;
export type GameAccessLevel = (typeof gameAccessLevels)[number];

/** Whether `level` may do what `needed` may. */
export const allows = (level: GameAccessLevel, needed: GameAccessLevel): boolean => gameAccessLevels.indexOf(level) >= gameAccessLevels.indexOf(needed);
/** The higher of two levels: a person with two grants has the higher role. */
export const higher = (a: GameAccessLevel, b: GameAccessLevel): GameAccessLevel => (allows(a, b) ? a : b);

const Role = Type.Enum(gameRoles);

export const GameAccessGrant = Type.Object({
  id: Id,
  role: Role,
  /** The friend it was granted to; null for a group's grant. */
  friend: Type.Union([Type.Object({ id: Id, name: Type.String() }), Type.Null()]),
  /** The friend group it was granted to (its members who are friends get it); null for a friend's. */
  group: Type.Union([Type.Object({ id: Id, name: Type.String(), members: Type.Integer({ minimum: 0, description: 'Its members who are users' }) }), Type.Null()]),
  createdAt: DateTime,
});
export type GameAccessGrant = Static<typeof GameAccessGrant>;

export const GameAccessList = Type.Object({ data: Type.Array(GameAccessGrant) });
export type GameAccessList = Static<typeof GameAccessList>;

export const GameAccessCreate = Type.Object(
  {
    friendId: Type.Optional(Id),
    groupId: Type.Optional(Id),
    role: Role,
  },
  { additionalProperties: false, description: 'Exactly one of friendId (one of your friends) and groupId (one of your friend groups)' },
);
export type GameAccessCreate = Static<typeof GameAccessCreate>;

export const GameAccessUpdate = Type.Object({ role: Role }, { additionalProperties: false });
export type GameAccessUpdate = Static<typeof GameAccessUpdate>;

export const AccessIdParams = Type.Object({ id: Id, accessId: Id });

/** A game someone shared with the caller, as their dashboard lists it. */
export const SharedGame = Type.Object({
  id: Id,
  name: Type.String(),
  version: Type.String(),
  status: Type.String(),
  owner: Type.Object({ id: Id, name: Type.String() }),
  role: Role,
});
export type SharedGame = Static<typeof SharedGame>;

export const SharedGameList = Type.Object({ data: Type.Array(SharedGame) });
export type SharedGameList = Static<typeof SharedGameList>;
