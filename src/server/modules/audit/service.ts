import { and, asc, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { auditLog } from '../../db/schema/audit.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import { notFound } from '../../lib/problems.ts';
import type { UsersService } from '../users/service.ts';
import { parseSort, type AuditEntry, type AuditQuery } from '../../../contract/staff.ts';
import type { Locale } from '../../../contract/messages.ts';

/** The name an entity was written with: a name (in `locale` when it has two languages), a label or a code. */
function snapshotName(locale: Locale, ...snapshots: unknown[]): string | null {
  for (const snapshot of snapshots) {
    if (!snapshot || typeof snapshot !== 'object') continue;
    for (const key of ['name', 'label', 'code']) {
      const value = (snapshot as Record<string, unknown>)[key];
      if (typeof value === 'string' && value) return value;
      if (value && typeof value === 'object' && typeof (value as Record<string, unknown>)[locale] === 'string') return (value as Record<Locale, string>)[locale];
    }
  }
  return null;
}

/** What a staff write records: the caller's transaction makes it land with the change or not at all. */
export interface AuditRecord {
  /** The staff member; null for the platform's own writes (the seed), which are not recorded. */
  actorId: string | null;
  action: string;
  entity: string;
  entityId: string;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Dates and other non-JSON values become what the API would have shown. */
const json = (value: unknown) => (value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown));

/** The audit log of staff writes: written inside each write's transaction, read by staff and support. */
export class AuditService {
  private readonly db: Db;
  private readonly users: UsersService;
  /** The games of these ids, with their names: the games module's to answer. */
  private readonly gameNames: (ids: string[]) => Promise<Array<{ id: string; name: string }>>;

  constructor(db: Db, users: UsersService, gameNames: (ids: string[]) => Promise<Array<{ id: string; name: string }>>) {
    this.db = db;
    this.users = users;
    this.gameNames = gameNames;
  }

  /** Appends one entry through `executor`, the transaction of the change it describes. */
  async record(executor: Executor, entry: AuditRecord): Promise<void> {
    if (entry.actorId === null) return;
    await executor.insert(auditLog).values({
      actorId: entry.actorId,
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId,
      reason: entry.reason ?? null,
      before: json(entry.before),
      after: json(entry.after),
    });
  }

  /** Newest first (or oldest with `sort=createdAt,asc`), filtered by actor, entity and dates. */
  async list(query: AuditQuery, window: Window, locale: Locale = 'fr') {
    const conditions: SQL[] = [];
    if (query.actorId) conditions.push(eq(auditLog.actorId, query.actorId));
    if (query.entity) conditions.push(eq(auditLog.entity, query.entity));
    if (query.entityId) conditions.push(eq(auditLog.entityId, query.entityId));
    if (query.from) conditions.push(gte(auditLog.createdAt, new Date(query.from)));
    if (query.to) conditions.push(lt(auditLog.createdAt, new Date(query.to)));
    const where = conditions.length ? and(...conditions) : undefined;
    const dir = parseSort(query.sort, { field: 'createdAt', desc: true }).desc ? desc : asc;
    const [rows, [total]] = await Promise.all([
      this.db.select().from(auditLog).where(where).orderBy(dir(auditLog.createdAt), dir(auditLog.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(auditLog).where(where),
    ]);
    return pageOf(await this.named(rows, locale), total?.n ?? 0, window);
  }

  /** One entry, as the list shows it: 404 when unknown. */
  async entry(id: string, locale: Locale = 'fr'): Promise<AuditEntry> {
    const [row] = await this.db.select().from(auditLog).where(eq(auditLog.id, id));
    if (!row) throw notFound('auditEntry');
    const [entry] = await this.named([row], locale);
    return entry!;
  }

  /** Staff read names, not ids: games and users by their name now, the rest by what was written. */
  private async named(rows: Array<typeof auditLog.$inferSelect>, locale: Locale): Promise<AuditEntry[]> {
    const ids = (entity: string) => [...new Set(rows.filter((r) => r.entity === entity).map((r) => r.entityId))];
    const gameIds = ids('game').filter((id) => /^[0-9a-f-]{36}$/i.test(id));
    const [names, gameNames] = await Promise.all([this.users.names([...rows.map((entry) => entry.actorId), ...ids('user').filter((id) => /^[0-9a-f-]{36}$/i.test(id))]), this.gameNames(gameIds)]);
    const gameName = new Map(gameNames.map((g) => [g.id, g.name]));
    return rows.map((entry) => ({
      id: entry.id,
      actorId: entry.actorId,
      actorName: names.get(entry.actorId) ?? '',
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId,
      entityName: (entry.entity === 'game' ? gameName.get(entry.entityId) : entry.entity === 'user' ? names.get(entry.entityId) : undefined) ?? snapshotName(locale, entry.after, entry.before),
      reason: entry.reason,
      before: entry.before ?? null,
      after: entry.after ?? null,
      createdAt: entry.createdAt.toISOString(),
    }));
  }
}
