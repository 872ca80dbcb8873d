import { Type, type Static } from 'typebox';
import { Difficulty, GameMode } from './games.ts';

/**
 * A game's settings after its creation (docs/architecture.md, "Settings and versions"). Some reach
 * a running server at once over RCON; the others are read by the server at its start.
 */
export const settingKeys = ['motd', 'gameMode', 'difficulty', 'pvp', 'maxPlayers', 'viewDistance', 'spawnProtection', 'whitelistEnabled', 'allowFlight', 'sleepAfterMinutes'] as const;
export type SettingKey = (typeof settingKeys)[number];
/**
 * What a running server takes at once (our admin plugin's `motd`, vanilla's `difficulty`,
 * `defaultgamemode`, which with force-gamemode switches every player online, and `whitelist on|off`).
 */
export const liveSettingKeys: readonly SettingKey[] = ['motd', 'gameMode', 'difficulty', 'whitelistEnabled', 'sleepAfterMinutes'];

const SettingKeyType = Type.Enum(settingKeys);

const fields = {
  motd: Type.String({ maxLength: 59, description: 'The message under the server’s name in the server list' }),
  gameMode: GameMode,
  difficulty: Difficulty,
  pvp: Type.Boolean(),
  maxPlayers: Type.Integer({ minimum: 1, maximum: 1000, description: 'At most the package’s number of players' }),
  viewDistance: Type.Integer({ minimum: 2, maximum: 32, description: 'In chunks' }),
  spawnProtection: Type.Integer({ minimum: 0, maximum: 64, description: 'Blocks around the spawn only operators may change' }),
  whitelistEnabled: Type.Boolean(),
  allowFlight: Type.Boolean(),
  sleepAfterMinutes: Type.Union([Type.Literal(0), Type.Integer({ minimum: 5, maximum: 120 })], {
    description: 'Minutes without a player before the server sleeps (saved and stopped, woken by the next player joining); 0 never',
  }),
};

export const SettingValues = Type.Object(fields);
export type SettingValues = Static<typeof SettingValues>;

export const GameSettingsView = Type.Object({
  values: SettingValues,
  /** The server icon as a `data:image/png;base64,` URL; null when it has none. */
  icon: Type.Union([Type.String(), Type.Null()]),
  /** The package's number of players: `maxPlayers` may not go above. */
  packageMaxPlayers: Type.Integer(),
  live: Type.Array(SettingKeyType, { description: 'The settings a running server takes at once; the others need a restart' }),
  version: Type.String(),
  /** The versions the game may change to, oldest first (its definition's list and its current version). */
  versions: Type.Array(Type.String()),
  running: Type.Boolean({ description: 'Whether the server runs (or starts) now: a version change restarts it' }),
});
export type GameSettingsView = Static<typeof GameSettingsView>;

export const GameSettingsUpdate = Type.Object(
  {
    motd: Type.Optional(fields.motd),
    gameMode: Type.Optional(fields.gameMode),
    difficulty: Type.Optional(fields.difficulty),
    pvp: Type.Optional(fields.pvp),
    maxPlayers: Type.Optional(fields.maxPlayers),
    viewDistance: Type.Optional(fields.viewDistance),
    spawnProtection: Type.Optional(fields.spawnProtection),
    whitelistEnabled: Type.Optional(fields.whitelistEnabled),
    allowFlight: Type.Optional(fields.allowFlight),
    sleepAfterMinutes: Type.Optional(fields.sleepAfterMinutes),
    restart: Type.Optional(Type.Boolean({ description: 'Restart a running server now so the settings that need it apply' })),
  },
  { additionalProperties: false },
);
export type GameSettingsUpdate = Static<typeof GameSettingsUpdate>;

export const GameSettingsResult = Type.Object({
  settings: GameSettingsView,
  applied: Type.Array(SettingKeyType, { description: 'Changed and applied to the running server now' }),
  pendingRestart: Type.Array(SettingKeyType, { description: 'Changed, and applied at the next start' }),
  restarting: Type.Boolean(),
});
export type GameSettingsResult = Static<typeof GameSettingsResult>;

export const GameVersionUpdate = Type.Object(
  {
    version: Type.String({ maxLength: 8 }),
    confirmDowngrade: Type.Optional(Type.Boolean({ description: 'Required to go to an older version: worlds may not open in an older one' })),
  },
  { additionalProperties: false },
);
export type GameVersionUpdate = Static<typeof GameVersionUpdate>;

export const GameVersionResult = Type.Object({
  version: Type.String(),
  restarting: Type.Boolean({ description: 'The server was running and restarts on the new version' }),
});
export type GameVersionResult = Static<typeof GameVersionResult>;
