import { Type, type Static } from 'typebox';
import { Backup } from './backups.ts';
import { GamePackage } from './catalogue.ts';
import { DateTime, Id, Nullable } from './common.ts';
import { Game } from './games.ts';

// Changing a game's offer: another package of its definition (docs/architecture.md, "Changing the offer").

/** What moving to one package would do, worked out now; the change itself does it again under the game's lock. */
export const OfferOption = Type.Object({
  package: GamePackage,
  /** The game's package now: nothing to change to. */
  current: Type.Boolean(),
  amount: Type.Integer({ description: 'Credits for the days left of the paid period: charged when positive, credited back when negative' }),
  /** Credits the balance lacks for this change; 0 when it covers it. */
  missing: Type.Integer({ minimum: 0 }),
  backupsToDelete: Type.Array(Backup, { description: 'The backups beyond the new quota: the change deletes them only when the caller names each one in confirmDeleteBackupIds' }),
  maxPlayersLowered: Nullable(Type.Object({ from: Type.Integer(), to: Type.Integer() }, { description: "The game's max players setting, above the package's limit, lowered to it" })),
  restartNeeded: Type.Boolean({ description: 'The server runs: its new memory and player limit apply at its next start' }),
});
export type OfferOption = Static<typeof OfferOption>;

export const OfferQuote = Type.Object({
  periodEnd: DateTime,
  /** Days left of the paid period, a day begun counting whole: what the amounts are prorated over. */
  daysLeft: Type.Integer({ minimum: 0 }),
  balance: Type.Integer(),
  options: Type.Array(OfferOption),
});
export type OfferQuote = Static<typeof OfferQuote>;

export const OfferChange = Type.Object(
  {
    packageId: Id,
    /** Every backup the new quota would delete, named: without them all, 409 and nothing changes. */
    confirmDeleteBackupIds: Type.Optional(Type.Array(Id, { maxItems: 200, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type OfferChange = Static<typeof OfferChange>;

export const OfferResult = Type.Object({
  game: Game,
  amount: Type.Integer({ description: 'Charged when positive, credited back when negative' }),
  balance: Type.Integer(),
  deletedBackups: Type.Integer({ minimum: 0 }),
  restartNeeded: Type.Boolean(),
});
export type OfferResult = Static<typeof OfferResult>;
