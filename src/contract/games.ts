import { Type, type Static } from 'typebox';
import { DateTime, Id, literals, Localized, McName, Nullable } from './common.ts';
import { GamePayment } from './renewals.ts';
import { desiredStates, gameStatuses } from './values.ts';
import { gameAccessLevels, type GameAccessLevel } from './sharing.ts';
import { StaffListQuery, StaffReason } from './staff.ts';
import { AddressNameTimes } from './address-names.ts';

export const playerListTypes = ['WHITELIST', 'OPS', 'BANNED'] as const;
export type PlayerListType = (typeof playerListTypes)[number];
const playerActions = ['ADD', 'REMOVE'] as const;
export type PlayerAction = (typeof playerActions)[number];

/**
 * The level changing each player list needs, on top of `players.list`'s: an operator may run any
 * command in the game, `stop` and `op` included, so only those who may stop the server make them.
 */
export const playerListLevels = { WHITELIST: 'MODERATOR', BANNED: 'MODERATOR', OPS: 'COADMIN' } as const satisfies Record<PlayerListType, GameAccessLevel>;

const PlayerListType = literals(playerListTypes);
const PlayerAction = literals(playerActions);

export interface LocalizedText {
  fr: string;
  en: string;
}

/**
 * The Minecraft releases the runtime serves (flying-squid 1.12: 1.8.8 to 1.21.4), oldest first.
 * Named one by one: a number inside the range that was never released (1.9.5, 1.21.0) is refused.
 */
export const minecraftVersions = [
  '1.8.8',
  '1.8.9',
  '1.9',
  '1.9.1',
  '1.9.2',
  '1.9.3',
  '1.9.4',
  '1.10',
  '1.10.1',
  '1.10.2',
  '1.11',
  '1.11.1',
  '1.11.2',
  '1.12',
  '1.12.1',
  '1.12.2',
  '1.13',
  '1.13.1',
  '1.13.2',
  '1.14',
  '1.14.1',
  '1.14.2',
  '1.14.3',
  '1.14.4',
  '1.15',
  '1.15.1',
  '1.15.2',
  '1.16',
  '1.16.1',
  '1.16.2',
  '1.16.3',
  '1.16.4',
  '1.16.5',
  '1.17',
  '1.17.1',
  '1.18',
  '1.18.1',
  '1.18.2',
  '1.19',
  '1.19.1',
  '1.19.2',
  '1.19.3',
  '1.19.4',
  '1.20',
  '1.20.1',
  '1.20.2',
  '1.20.3',
  '1.20.4',
  '1.20.5',
  '1.20.6',
  '1.21',
  '1.21.1',
  '1.21.2',
  '1.21.3',
  '1.21.4',
] as const;
export const minVersion = minecraftVersions[0];
export const maxVersion: string = minecraftVersions[minecraftVersions.length - 1]!;
export function isSupportedVersion(v: string): boolean {
  return (minecraftVersions as readonly string[]).includes(v);
}

export const GameMode = literals(['survival', 'creative', 'adventure', 'spectator'] as const);
export const Difficulty = literals(['peaceful', 'easy', 'normal', 'hard'] as const);

export const GameSettings = Type.Object(
  {
    motd: Type.Optional(Type.String({ maxLength: 59 })),
    gameMode: Type.Optional(GameMode),
    difficulty: Type.Optional(Difficulty),
    seed: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);
export type GameSettings = Static<typeof GameSettings>;

/** A game's settings once its definition's defaults are applied. */
export const ResolvedSettings = Type.Object({
  motd: Type.String(),
  gameMode: GameMode,
  difficulty: Difficulty,
  seed: Nullable(Type.String()),
  // Set after creation on the game's Settings (src/contract/settings.ts); absent, vanilla's defaults.
  pvp: Type.Optional(Type.Boolean()),
  maxPlayers: Type.Optional(Type.Integer()),
  viewDistance: Type.Optional(Type.Integer()),
  spawnProtection: Type.Optional(Type.Integer()),
  allowFlight: Type.Optional(Type.Boolean()),
  sleepAfterMinutes: Type.Optional(Type.Integer()),
});
export type ResolvedSettings = Static<typeof ResolvedSettings>;

export const gameCreate = Type.Object(
  {
    definitionId: Id,
    packageId: Id,
    name: Type.String({ minLength: 1, maxLength: 60 }),
    /** The address name players will type (`address-names.ts`); one is made from the owner's and the game's names when absent. */
    addressName: Type.Optional(Type.String({ maxLength: 64 })),
    settings: Type.Optional(GameSettings),
    promoCode: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{3,32}$', maxLength: 32 })),
    autoRenew: Type.Optional(Type.Boolean()),
  },
  { $id: 'gameCreate', additionalProperties: false },
);
export type GameCreate = Static<typeof gameCreate>;

export const Game = Type.Object({
  id: Id,
  name: Type.String(),
  /** The first label of the address players type, `<addressName>.<GAME_DOMAIN>`. */
  addressName: Type.String(),
  ...AddressNameTimes,
  definitionId: Id,
  packageId: Id,
  version: Type.String(),
  ramMb: Type.Integer(),
  maxPlayers: Type.Integer(),
  settings: ResolvedSettings,
  desiredState: literals(desiredStates),
  status: literals(gameStatuses),
  /** Why the game is CRASHED, when known. */
  statusReason: Nullable(Type.String()),
  statusChangedAt: DateTime,
  /** When a crashed game is restarted; null when no restart is planned. */
  nextAttemptAt: Nullable(DateTime),
  whitelistEnabled: Type.Boolean(),
  autoRenew: Type.Boolean(),
  /** The server runs on the memory and player limit of the package it had before a change of offer: they apply at its next start. */
  restartNeeded: Type.Boolean(),
  periodEnd: DateTime,
  /** When it turned EXPIRED (renewal unpaid at periodEnd); paying its renewal revives it until its world is deleted. */
  expiredAt: Type.Optional(Nullable(DateTime)),
  /** When its world was deleted, GAME_RETENTION_DAYS after it expired: it can no longer be revived. */
  worldDeletedAt: Type.Optional(Nullable(DateTime)),
  /** When its owner or staff deleted it; only the back office still shows it then. */
  deletedAt: Type.Optional(Nullable(DateTime)),
  /** The renewal waiting to be paid (PENDING), if any; given by the single-game and list reads. */
  renewal: Type.Optional(Nullable(GamePayment)),
  createdAt: DateTime,
  /** What the caller is to this game (OWNER, or the role it was shared with them with); given by the single-game read. */
  access: Type.Optional(Type.Enum(gameAccessLevels)),
});
export type Game = Static<typeof Game>;

/** One status, or several: repeated (`status=A&status=B`) or comma-separated (`status=A,B`). */
const StatusFilter = Type.Array(Type.String({ maxLength: 120, pattern: `^(${gameStatuses.join('|')})(,(${gameStatuses.join('|')}))*$` }), { maxItems: 10 });
export const GameListQuery = Type.Object(
  {
    status: Type.Optional(StatusFilter),
    ignoredStatus: Type.Optional(StatusFilter),
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
  },
  { additionalProperties: false },
);

/** A game as the back office shows it: with its owner, and what was bought, by name. */
export const StaffGame = Type.Object({
  ...Game.properties,
  ownerId: Id,
  ownerName: Type.String(),
  definitionName: Localized(80),
  packageName: Localized(60),
});
export type StaffGame = Static<typeof StaffGame>;

const staffGameSortFields = ['createdAt', 'periodEnd', 'name'] as const;
export const StaffGameQuery = StaffListQuery(staffGameSortFields, {
  ownerId: Type.Optional(Id),
  status: Type.Optional(StatusFilter),
  ignoredStatus: Type.Optional(StatusFilter),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 60, description: "Part of the game's name, any case" })),
});
export type StaffGameQuery = Static<typeof StaffGameQuery>;

/** The owner deletes their game by typing its name, as the confirmation asks. */
export const GameDelete = Type.Object({ name: Type.String({ minLength: 1, maxLength: 60, description: "The game's name, typed by its owner to confirm" }) }, { additionalProperties: false });
export type GameDelete = Static<typeof GameDelete>;

/** Staff give a game free days; the reason is kept in the audit log and told to the owner. */
export const StaffGameExtend = Type.Object({ days: Type.Integer({ minimum: 1, maximum: 366 }), reason: StaffReason.properties.reason }, { additionalProperties: false });
export type StaffGameExtend = Static<typeof StaffGameExtend>;

export const GameStatusView = Type.Object({
  status: literals(gameStatuses),
  playersOnline: Type.Integer(),
  maxPlayers: Type.Integer(),
  version: Type.String(),
  motd: Type.String(),
  /** host:port players connect to (`name.GAME_DOMAIN` through the game gateway when it runs); null unless RUNNING, or SLEEPING behind the gateway (joining by name wakes it). */
  address: Nullable(Type.String()),
  /** The server's own host:port, beside a gateway address, for clients where `*.GAME_DOMAIN` does not resolve. */
  directAddress: Type.Optional(Type.String()),
});
export type GameStatusView = Static<typeof GameStatusView>;

export const playerRequest = Type.Object({ name: McName, reason: Type.Optional(Type.String({ maxLength: 200 })) }, { $id: 'playerRequest', additionalProperties: false });
export const playerPatchRequest = Type.Object(
  {
    name: McName,
    type: PlayerListType,
    action: PlayerAction,
    reason: Type.Optional(Type.String({ maxLength: 200, description: 'Why, for a ban (type BANNED, action ADD): told to the player by the running server' })),
  },
  { $id: 'playerPatchRequest', additionalProperties: false },
);
export const playerGroupIdPatchRequest = Type.Object({ groupId: Id, type: PlayerListType, action: PlayerAction }, { $id: 'playerGroupIdPatchRequest', additionalProperties: false });

export const PlayerListQuery = Type.Object({ type: PlayerListType }, { additionalProperties: false });
export const PlayerList = Type.Object({ type: PlayerListType, players: Type.Array(Type.Object({ name: Type.String(), addedAt: DateTime })) });
export type PlayerList = Static<typeof PlayerList>;
export const ConnectedPlayers = Type.Object({ playersOnline: Type.Integer(), maxPlayers: Type.Integer(), players: Type.Array(Type.Object({ name: Type.String() })) });
export const WhitelistStatus = Type.Object({ enabled: Type.Boolean() });
export const WhitelistQuery = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
export const RconAnswer = Type.Object({ message: Type.String() });
/** What an announce did: how many friends were told, and the address they were given. */
export const AnnounceResult = Type.Object({ notified: Type.Integer(), address: Type.String() });

export const InternalHeaders = Type.Object({ 'x-internal-token': Type.Optional(Type.String({ maxLength: 200 })) });

/** POST /v1/internal/game/wake/{id}: a game gateway process asks for a sleeping game's wake, for a login. */
export const InternalWake = Type.Object(
  {
    /** The client's address, whose wakes are limited. */
    address: Type.Optional(Type.String({ maxLength: 64 })),
    /** The login's first ask (counted against the limits); false when asking again while a lock held it. */
    first: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const wakeAnswers = ['started', 'locked', 'limited', 'gone'] as const;
export const InternalWakeResult = Type.Object({
  result: Type.Enum(wakeAnswers, {
    description:
      'started: asked (or already starting or running), wait for RUNNING; locked: a backup or a restore holds the game, ask again once it is free; limited: too many wakes; gone: it will not wake (deleted, stopped)',
  }),
});

/** PATCH /v1/game/{id}: what the owner may change after buying. */
export const gameUpdate = Type.Object({ autoRenew: Type.Boolean() }, { additionalProperties: false });
