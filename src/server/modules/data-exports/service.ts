import { and, desc, eq, gte } from 'drizzle-orm';
import type { DataExport } from '../../../contract/data-exports.ts';
import type { Db } from '../../db/client.ts';
import { dataExports } from '../../db/schema/data-exports.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { conflict, HttpProblem, notFound } from '../../lib/problems.ts';
import type { ObjectStore } from '../../storage/store.ts';
import { objectKey, type DataExportRounds } from './rounds.ts';

/** How many exports a person may ask for in a day: each reads all their rows. */
const EXPORTS_PER_DAY = 3;

type Row = typeof dataExports.$inferSelect;

function toExport(row: Row): DataExport {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    sizeBytes: row.sizeBytes,
  };
}

/** The calls on a person's data exports: ask for one, list them, read one. Built by the rounds. */
export class DataExportsService {
  private readonly db: Db;
  private readonly deps: { store: ObjectStore; rounds: DataExportRounds };
  private readonly options: { clock: () => Date };

  constructor(db: Db, deps: { store: ObjectStore; rounds: DataExportRounds }, options: { clock: () => Date }) {
    this.db = db;
    this.deps = deps;
    this.options = options;
  }

  /** Asks for a new export, built at once in the background; one at a time, a few a day. */
  async ask(userId: string): Promise<DataExport> {
    const now = this.options.clock();
    const recent = await this.db
      .select()
      .from(dataExports)
      .where(and(eq(dataExports.userId, userId), gte(dataExports.createdAt, new Date(now.getTime() - 24 * 3600_000))));
    if (recent.some((row) => row.status === 'PENDING')) throw conflict('dataExports.pending');
    if (recent.length >= EXPORTS_PER_DAY) throw new HttpProblem(429, 'dataExports.tooMany', { count: EXPORTS_PER_DAY });
    // Two asks at once both pass the check above: the one-PENDING index refuses the second.
    const row = await this.db
      .insert(dataExports)
      .values({ userId, createdAt: now })
      .returning()
      .then(([inserted]) => inserted!)
      .catch((err: unknown) => {
        throw isUniqueViolation(err) ? conflict('dataExports.pending') : err;
      });
    this.deps.rounds.soon();
    return toExport(row);
  }

  /** The person's exports still kept, newest first. */
  async list(userId: string): Promise<DataExport[]> {
    const rows = await this.db.select().from(dataExports).where(eq(dataExports.userId, userId)).orderBy(desc(dataExports.createdAt), desc(dataExports.id));
    return rows.map(toExport);
  }

  /** A READY export's file, streamed from the store; another person's is not found. */
  async open(userId: string, id: string): Promise<{ body: NodeJS.ReadableStream; sizeBytes: number; createdAt: Date }> {
    const [row] = await this.db
      .select()
      .from(dataExports)
      .where(and(eq(dataExports.id, id), eq(dataExports.userId, userId)));
    if (!row) throw notFound('dataExport');
    if (row.status !== 'READY') throw conflict('dataExports.notReady');
    return { body: await this.deps.store.read(objectKey(row)), sizeBytes: row.sizeBytes ?? 0, createdAt: row.createdAt };
  }
}
