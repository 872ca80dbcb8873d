import { Type, type Static } from 'typebox';
import { Id, Page } from './common.ts';

/**
 * Backups of a game's world (docs/architecture.md, "Backups"). These lists feed both the database
 * columns and the validators.
 */
export const backupKinds = ['MANUAL', 'NIGHTLY', 'AUTOMATIC'] as const;
export type BackupKind = (typeof backupKinds)[number];
export const backupStatuses = ['PENDING', 'RUNNING', 'READY', 'FAILED'] as const;

const DateTime = Type.String({ format: 'date-time' });
const Note = Type.String({ maxLength: 200, description: 'What the owner wrote about it' });

export const Backup = Type.Object({
  id: Id,
  gameId: Id,
  kind: Type.Enum(backupKinds, { description: 'MANUAL: asked by someone; NIGHTLY: the nightly one; AUTOMATIC: taken before a restore, an upload or an expiry' }),
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
export const BackupPage = Page(Backup);

export const BackupParams = Type.Object({ id: Id, backupId: Id }, { additionalProperties: false });
export const BackupCreate = Type.Object({ note: Type.Optional(Note) }, { additionalProperties: false });
export type BackupCreate = Static<typeof BackupCreate>;
export const BackupPatch = Type.Object({ pinned: Type.Optional(Type.Boolean()), note: Type.Optional(Type.Union([Note, Type.Null()])) }, { additionalProperties: false, minProperties: 1 });
export type BackupPatch = Static<typeof BackupPatch>;

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
