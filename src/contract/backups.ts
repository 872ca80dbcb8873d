import { Type, type Static } from 'typebox';
import { DateTime, Id, Page } from './common.ts';

/**
 * Backups of a game's world (docs/architecture.md, "Backups"). These lists feed both the database
 * columns and the validators.
 */
export const backupKinds = ['MANUAL', 'NIGHTLY', 'AUTOMATIC'] as const;
export type BackupKind = (typeof backupKinds)[number];
export const backupStatuses = ['PENDING', 'RUNNING', 'READY', 'FAILED'] as const;
/** Why a backup nobody asked for was taken, a key of `games.backups.reason` in the web app's catalogues. */
export const backupReasons = ['beforeRestore', 'beforeUpload', 'beforeVersionChange', 'deletion', 'expiry', 'nightly', 'scheduled'] as const;
export type BackupReason = (typeof backupReasons)[number];

const Note = Type.String({ maxLength: 200, description: 'What the owner wrote about it' });

export const Backup = Type.Object({
  id: Id,
  gameId: Id,
  kind: Type.Enum(backupKinds, { description: 'MANUAL: asked by someone; NIGHTLY: the nightly one; AUTOMATIC: taken before a restore, an upload or an expiry, or by a scheduled task' }),
  reason: Type.Union([Type.Enum(backupReasons), Type.Null()], {
    description:
      'Why it was taken, for the nightly and automatic ones (a key, to render in the reader’s language): beforeRestore, beforeUpload, beforeVersionChange, deletion, expiry, nightly, scheduled; null for a manual one',
  }),
  status: Type.Enum(backupStatuses, { description: 'READY only once the whole archive is stored and checksummed' }),
  sizeBytes: Type.Union([Type.Integer(), Type.Null()]),
  sha256: Type.Union([Type.String(), Type.Null()]),
  createdAt: DateTime,
  finishedAt: Type.Union([DateTime, Type.Null()]),
  pinned: Type.Boolean({ description: 'A pinned backup is never pruned' }),
  note: Type.Union([Note, Type.Null()]),
  /** Who asked for it, by username; null for the nightly and automatic ones. */
  createdBy: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String({ description: "Why it failed, in the caller's language" }), Type.Null()]),
  progress: Type.Union([Type.Integer({ minimum: 0, maximum: 100, description: 'While RUNNING, how far it is, in percent' }), Type.Null()]),
  expiresAt: Type.Union([DateTime, Type.Null()], { description: "When it is deleted: set on the one backup kept after its game's world was deleted at the end of its retention" }),
});
export type Backup = Static<typeof Backup>;

/** The package's backup quota and how much of it the game's finished backups fill. */
export const BackupQuota = Type.Object({
  kept: Type.Integer({ minimum: 0, description: 'How many backups the package keeps (pinned ones included)' }),
  maxMb: Type.Integer({ minimum: 0, description: 'Their total size at most, in MB' }),
  count: Type.Integer({ minimum: 0, description: 'The READY backups the game holds now' }),
  sizeBytes: Type.Integer({ minimum: 0, description: 'Their total size' }),
});
export type BackupQuota = Static<typeof BackupQuota>;

export const BackupPage = Type.Object({ ...Page(Backup).properties, quota: BackupQuota });

export const BackupPruneQuery = Type.Object(
  { restoring: Type.Optional(Type.String({ format: 'uuid', maxLength: 36, description: 'The backup about to be restored: what the backup taken before its restore would prune' })) },
  { additionalProperties: false },
);
export type BackupPruneQuery = Static<typeof BackupPruneQuery>;

/** What the next backup (taken now, before an upload, or before restoring `restoring`) would delete to stay within the quota. */
export const BackupPrune = Type.Object({
  quota: BackupQuota,
  data: Type.Array(Backup, { description: 'The backups it would delete, in the order they go: automatic and nightly ones oldest first, then manual ones' }),
});
export type BackupPrune = Static<typeof BackupPrune>;

export const BackupParams = Type.Object({ id: Id, backupId: Id }, { additionalProperties: false });
export const BackupCreate = Type.Object({ note: Type.Optional(Note) }, { additionalProperties: false });
export type BackupCreate = Static<typeof BackupCreate>;
export const BackupPatch = Type.Object({ pinned: Type.Optional(Type.Boolean()), note: Type.Optional(Type.Union([Note, Type.Null()])) }, { additionalProperties: false, minProperties: 1 });
export type BackupPatch = Static<typeof BackupPatch>;

/** The last backup of one of the caller's deleted games, kept GAME_RETENTION_DAYS to download from the account page. */
export const KeptBackup = Type.Object({
  id: Id,
  gameId: Id,
  gameName: Type.String(),
  createdAt: DateTime,
  sizeBytes: Type.Union([Type.Integer(), Type.Null()]),
  expiresAt: DateTime,
});
export type KeptBackup = Static<typeof KeptBackup>;
export const KeptBackupParams = Type.Object({ backupId: Id }, { additionalProperties: false });

export const BackupLink = Type.Object({
  url: Type.String({ description: 'Downloads the backup as a .zip; works without a token, for this backup only' }),
  expiresAt: DateTime,
});
export type BackupLink = Static<typeof BackupLink>;

export const BackupSettings = Type.Object(
  {
    nightly: Type.Boolean({ description: 'Whether a backup is taken every night' }),
    hour: Type.Integer({ minimum: 0, maximum: 23, description: 'The hour of the nightly backup, in timeZone' }),
    timeZone: Type.String({ minLength: 1, maxLength: 64, description: "An IANA time zone (the owner's browser's), e.g. Europe/Paris" }),
  },
  { additionalProperties: false },
);
export type BackupSettings = Static<typeof BackupSettings>;
