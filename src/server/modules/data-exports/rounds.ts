import { Readable } from 'node:stream';
import { and, asc, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dataExports } from '../../db/schema/data-exports.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { RoundLoop } from '../../lib/round-loop.ts';
import type { ObjectStore } from '../../storage/store.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { UsersService } from '../users/service.ts';

/** How long a READY export is kept, and a FAILED one listed. */
const KEEP_MS = 7 * 24 * 3600_000;
/** How long a replica may take to build one before another takes it over (its process died). */
const CLAIM_MS = 2 * 60_000;
/** A round every half minute builds what a call on another replica asked for, and deletes the expired. */
const ROUND_MS = 30_000;
/** Where the notices send the person: the account page's data card. */
const LINK = '/dashboard/account#data';

type Row = typeof dataExports.$inferSelect;

/** Where an export's file is in the object store. */
export const objectKey = (row: Pick<Row, 'userId' | 'id'>) => `exports/${row.userId}/${row.id}.json`;

/**
 * Builds asked exports, one at a time on whichever replica claims it, and deletes them once
 * expired. An export is asked on one replica and built at once there (`soon`); the rounds catch
 * those whose builder died, and the ones asked while this replica's rounds were off.
 */
export class DataExportRounds {
  private loop: RoundLoop | undefined;
  private running: Promise<unknown> = Promise.resolve();

  private readonly db: Db;
  private readonly deps: { store: ObjectStore; personalData: PersonalData; users: UsersService; notifications: NotificationsService; mailer: Mailer };
  private readonly options: { clock: () => Date; publicUrl: string; log: { error(obj: object, msg: string): void } };

  constructor(
    db: Db,
    deps: { store: ObjectStore; personalData: PersonalData; users: UsersService; notifications: NotificationsService; mailer: Mailer },
    options: { clock: () => Date; publicUrl: string; log: { error(obj: object, msg: string): void } },
  ) {
    this.db = db;
    this.deps = deps;
    this.options = options;
  }

  start(): void {
    this.loop ??= new RoundLoop(
      () => this.tick(),
      () => ROUND_MS,
      (err) => this.options.log.error({ err }, 'data export round failed'),
    );
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    this.loop = undefined;
    await this.running;
  }

  /** A round now, after the one under way, when the rounds run (tests run theirs with `tick`). */
  soon(): void {
    if (!this.loop) return;
    this.running = this.running.then(() => this.tick()).catch((err: unknown) => this.options.log.error({ err }, 'data export failed'));
  }

  /** Builds every export waiting for a builder, then deletes the expired ones. Returns how many it built. */
  async tick(): Promise<number> {
    let built = 0;
    for (let row = await this.claim(); row; row = await this.claim()) {
      await this.build(row);
      built++;
    }
    await this.expire();
    return built;
  }

  private async claim(): Promise<Row | undefined> {
    const now = this.options.clock();
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(dataExports)
        .where(and(eq(dataExports.status, 'PENDING'), or(isNull(dataExports.claimedUntil), lt(dataExports.claimedUntil, now))))
        .orderBy(asc(dataExports.createdAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return undefined;
      await tx
        .update(dataExports)
        .set({ claimedUntil: new Date(now.getTime() + CLAIM_MS) })
        .where(eq(dataExports.id, row.id));
      return row;
    });
  }

  private async build(row: Row): Promise<void> {
    const { store, personalData, users, notifications } = this.deps;
    try {
      const person = await users.get(row.userId);
      if (!person) return;
      const exportedAt = this.options.clock();
      const data = await personalData.collect({ id: person.id, locale: person.locale });
      const file = JSON.stringify({ exportedAt: exportedAt.toISOString(), ...data }, null, 2);
      const { sizeBytes } = await store.put(objectKey(row), Readable.from([Buffer.from(file)]));
      const until = new Date(exportedAt.getTime() + KEEP_MS).toISOString();
      await this.db.transaction(async (tx) => {
        await tx
          .update(dataExports)
          .set({ status: 'READY', readyAt: exportedAt, expiresAt: new Date(until), sizeBytes, claimedUntil: null })
          .where(eq(dataExports.id, row.id));
        await notifications.notify(row.userId, { key: 'dataExport.ready', params: { at: until }, link: LINK }, tx);
      });
      // Once it is READY: a mail server that is down loses the email, never the export.
      if (person.email) {
        const mail = { to: person.email, locale: person.locale, name: person.name, kind: 'dataExportReady' as const, params: { at: until }, link: `${this.options.publicUrl}${LINK}` };
        await this.deps.mailer.send(mail).catch((err: unknown) => this.options.log.error({ err, exportId: row.id }, 'data export email not sent'));
      }
    } catch (err) {
      this.options.log.error({ err, exportId: row.id }, 'data export failed');
      await this.db.transaction(async (tx) => {
        await tx
          .update(dataExports)
          .set({ status: 'FAILED', claimedUntil: null, expiresAt: new Date(this.options.clock().getTime() + KEEP_MS) })
          .where(eq(dataExports.id, row.id));
        await notifications.notify(row.userId, { key: 'dataExport.failed', params: {}, link: LINK }, tx);
      });
    }
  }

  /** A deleted account's exports go, each file before its row, as `expire` does. */
  async forget(userId: string): Promise<void> {
    const rows = await this.db.select().from(dataExports).where(eq(dataExports.userId, userId));
    for (const row of rows) {
      await this.deps.store.delete(objectKey(row));
      await this.db.delete(dataExports).where(eq(dataExports.id, row.id));
    }
  }

  /** Exports past their time: the file deleted first, so a row never outlives a file nobody can reach. */
  private async expire(): Promise<void> {
    const now = this.options.clock();
    const expired = await this.db
      .select()
      .from(dataExports)
      .where(and(inArray(dataExports.status, ['READY', 'FAILED']), lt(dataExports.expiresAt, now)));
    for (const row of expired) {
      await this.deps.store.delete(objectKey(row));
      await this.db.delete(dataExports).where(eq(dataExports.id, row.id));
    }
  }
}
