import { Type, type Static } from 'typebox';
import { DateTime, Id } from './common.ts';

/**
 * A person's copy of their data (RGPD article 20): one JSON file of everything the platform holds
 * about them, built in the background and kept a week (docs/architecture.md, "Personal data").
 */
export const dataExportStatuses = ['PENDING', 'READY', 'FAILED'] as const;

export const DataExport = Type.Object({
  id: Id,
  status: Type.Enum(dataExportStatuses, { description: 'PENDING while it is built (within a minute); READY to download; FAILED: ask again' }),
  createdAt: DateTime,
  readyAt: Type.Union([DateTime, Type.Null()]),
  expiresAt: Type.Union([DateTime, Type.Null()], { description: 'When a READY one is deleted' }),
  sizeBytes: Type.Union([Type.Integer(), Type.Null()]),
});
export type DataExport = Static<typeof DataExport>;

export const DataExportList = Type.Object({ data: Type.Array(DataExport) });
export type DataExportList = Static<typeof DataExportList>;
