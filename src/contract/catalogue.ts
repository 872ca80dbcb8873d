import { Type, type Static } from 'typebox';
import { DateTime, Id, Localized, Nullable } from './common.ts';
import { GameSettings, maxVersion, minVersion } from './games.ts';

// The catalogue: game definitions and the packages each sells (docs/product.md, "Catalogue").

const ImagePath = Type.String({ maxLength: 500, pattern: '^(/|https://)', description: 'A path on this site (/images/games/...) or an https URL' });
const Version = Type.String({ pattern: '^1\\.\\d{1,2}(\\.\\d{1,2})?$', maxLength: 8, description: `Minecraft version, ${minVersion} to ${maxVersion}` });

export const gameDefCreate = Type.Object(
  {
    name: Localized(80),
    description: Localized(4000),
    image: Type.Optional(ImagePath),
    version: Version,
    /** Other versions its games may change to after creation, besides `version`. */
    allowedVersions: Type.Optional(Type.Array(Version, { maxItems: 100, uniqueItems: true })),
    settings: Type.Optional(GameSettings),
    published: Type.Optional(Type.Boolean()),
  },
  { $id: 'gameDefCreate', additionalProperties: false },
);
export type GameDefCreate = Static<typeof gameDefCreate>;

const packageFields = {
  name: Localized(60),
  ramMb: Type.Integer({ minimum: 128, maximum: 65536 }),
  maxPlayers: Type.Integer({ minimum: 1, maximum: 1000 }),
  periodDays: Type.Integer({ minimum: 1, maximum: 366 }),
  priceCredits: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
};

const PackageDescription = Localized(500);
/** The package's backup quota (docs/architecture.md, "Backups"); left out at creation, 7 backups in 10 GB. */
const backupQuota = {
  backupsKept: Type.Integer({ minimum: 1, maximum: 100, description: 'How many backups a game keeps; beyond, the oldest unpinned are pruned' }),
  backupsMaxMb: Type.Integer({ minimum: 100, maximum: 1_000_000, description: 'Total size of a game’s backups, in MB' }),
};
const optionalQuota = { backupsKept: Type.Optional(backupQuota.backupsKept), backupsMaxMb: Type.Optional(backupQuota.backupsMaxMb) };

export const gamePackageCreate = Type.Object(
  { definitionId: Id, ...packageFields, ...optionalQuota, description: Type.Optional(Nullable(PackageDescription)) },
  { $id: 'gamePackageCreate', additionalProperties: false },
);
export type GamePackageCreate = Static<typeof gamePackageCreate>;
/** Staff update of a package (it stays in its definition). A description left out stays as it was; null removes it. */
export const GamePackageUpdate = Type.Object({ ...packageFields, ...optionalQuota, description: Type.Optional(Nullable(PackageDescription)) }, { additionalProperties: false });
export type GamePackageUpdate = Static<typeof GamePackageUpdate>;

export const GamePackage = Type.Object({ id: Id, definitionId: Id, ...packageFields, ...backupQuota, description: Nullable(PackageDescription), createdAt: DateTime, updatedAt: DateTime });
export type GamePackage = Static<typeof GamePackage>;

const Rating = Type.Object({ average: Nullable(Type.Number()), count: Type.Integer() });

export const GameDefinition = Type.Object({
  id: Id,
  name: Localized(80),
  description: Localized(4000),
  image: Nullable(Type.String()),
  /** `srcset` of an uploaded image (its 1x and 2x WebP); null for any other image. */
  imageSrcSet: Nullable(Type.String()),
  version: Type.String(),
  /** Other versions its games may change to, besides `version`. */
  allowedVersions: Type.Array(Type.String()),
  settings: GameSettings,
  published: Type.Boolean(),
  packages: Type.Array(GamePackage),
  /** The cheapest package's price; null without packages. */
  priceFrom: Nullable(Type.Integer()),
  rating: Rating,
  createdAt: DateTime,
  updatedAt: DateTime,
});
export type GameDefinition = Static<typeof GameDefinition>;

export const PackageQuery = Type.Object({ id: Id }, { additionalProperties: false });
