import { Type } from 'typebox';
import { DateTime, Nullable } from './common.ts';

/**
 * A game's address name: the first label of the address players type (`alice-survie` in
 * `alice-survie.<GAME_DOMAIN>`), which the game gateway routes by. A DNS label: lowercase letters,
 * digits and hyphens, neither first nor last, 3 to 32 characters; unique among the games not
 * deleted; none of the reserved words.
 */
export const ADDRESS_NAME_PATTERN = '^[a-z0-9](?:[a-z0-9-]{1,30})[a-z0-9]$';

/**
 * Names the platform keeps for itself or that would mislead a player, in one place: hosts the
 * domain may have (www, api, mail…), words that pass for the platform (admin, staff, blockhost…).
 */
export const reservedAddressNames = [
  'www',
  'api',
  'app',
  'mail',
  'smtp',
  'imap',
  'pop',
  'mx',
  'ns',
  'ns1',
  'ns2',
  'dns',
  'ftp',
  'ssh',
  'vpn',
  'admin',
  'administrator',
  'root',
  'staff',
  'support',
  'help',
  'status',
  'billing',
  'pay',
  'payment',
  'payments',
  'play',
  'game',
  'games',
  'server',
  'servers',
  'gateway',
  'proxy',
  'lobby',
  'hub',
  'auth',
  'login',
  'oidc',
  'account',
  'accounts',
  'dashboard',
  'console',
  'panel',
  'cdn',
  'static',
  'assets',
  'media',
  'docs',
  'blog',
  'shop',
  'store',
  'test',
  'dev',
  'staging',
  'prod',
  'localhost',
  'blockhost',
  'minecraft',
  'mojang',
  'official',
] as const;

/** An owner's new address name for a game. */
export const addressNameChange = Type.Object({ addressName: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export const AddressNameSuggestQuery = Type.Object(
  {
    /** The game's name, as typed so far in the buy form. */
    name: Type.String({ minLength: 1, maxLength: 60 }),
    /** A name the player typed: said whether it may be taken, and why not. */
    addressName: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

export const AddressNameSuggestion = Type.Object({
  /** Free, valid, from the owner's and the game's names. */
  suggestion: Type.String(),
  /** The domain the name goes in front of (GAME_DOMAIN): players type `<name>.<domain>`. */
  domain: Type.String(),
  /** Whether the `addressName` asked about may be taken now (absent when none was asked about). */
  available: Type.Optional(Type.Boolean()),
  /** Why not, in the caller's language. */
  reason: Type.Optional(Type.String()),
});

/** When a game's address name was last changed, and when it may be again (once a day). */
export const AddressNameTimes = {
  addressNameChangedAt: Type.Optional(Nullable(DateTime)),
  /** From when it may be changed again; null when it never was. */
  addressNameNextChange: Type.Optional(Nullable(DateTime)),
};
