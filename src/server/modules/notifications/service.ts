import { and, asc, count, desc, eq, gt, gte, inArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { notifications } from '../../db/schema/notifications.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import type { Notification, NotificationData } from '../../../contract/notifications.ts';
import type { Locale, Message, MessageParams } from '../../../contract/messages.ts';
import { noticeText } from '../../lib/messages.ts';
import type { UsersService } from '../users/service.ts';
import { liveResources, type ResourceChange } from '../../../contract/live.ts';
import { BALANCE_CHANNEL } from '../money/credits/service.ts';
import type { StreamLimits } from '../../lib/stream-slots.ts';
import { StreamHub, type Delivery } from './hub.ts';

export const CHANNEL = 'notifications';
/** Where `changed` sends its resource changes to every replica, as `ChangeDelivery`s. */
const CHANGES_CHANNEL = 'resource_changes';

/** Resource changes and the users whose streams hear of them. */
interface ChangeDelivery {
  userIds: string[];
  changes: ResourceChange[];
}

/**
 * How far before a lost LISTEN connection was noticed to read back: `created_at` is when the
 * writing transaction began, maybe before the drop though committed after, and clocks differ.
 */
const CATCH_UP_MARGIN_MS = 10_000;
/** Most rows read back after a lost connection: beyond that, streams resume from live ones. */
const CATCH_UP_LIMIT = 5_000;
type Row = typeof notifications.$inferSelect;

/** What a notice says (a message of `notices` in locales/{fr,en}/messages.json) and where it leads. */
export interface Notice extends Message {
  link: string | null;
}

/** A parameter longer than this is cut: a notice stays well within NOTIFY's 8 000 bytes. */
const PARAM_MAX = 300;

function bounded(params: MessageParams): MessageParams {
  const cut = (value: MessageParams[string]): MessageParams[string] =>
    typeof value === 'string' ? value.slice(0, PARAM_MAX) : typeof value === 'object' ? { fr: value.fr.slice(0, PARAM_MAX), en: value.en.slice(0, PARAM_MAX) } : value;
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, cut(value)]));
}

/** The notice's `{title, description, link}` (docs/product.md, Notifications) in `locale`, with the message for clients rendering it in theirs. */
function dataOf(row: Row, locale: Locale): NotificationData {
  const { title, description } = noticeText({ key: row.key, params: row.params }, locale);
  return { title: title.slice(0, 200), description: description.slice(0, 1000), link: row.link, key: row.key, params: row.params };
}

function toNotification(row: Row, locale: Locale): Notification {
  return { id: row.id, event: row.event, data: dataOf(row, locale), read: row.read, createdAt: row.createdAt.toISOString() };
}

function toDelivery(row: Row, locale: Locale): Delivery {
  return { userId: row.userId, id: row.id, seq: row.seq, data: dataOf(row, locale) };
}

/** The users, besides those a change is sent to, who hear of changes to these ids of a resource. */
type Audience = (ids: string[], executor: Executor) => Promise<string[]>;

/**
 * Stores notifications and delivers them live. Delivery goes through PostgreSQL NOTIFY even inside
 * one process, so every replica's streams get it the same way, and only once the row is committed.
 */
export class NotificationsService {
  readonly hub: StreamHub;
  private readonly database: Database;
  private readonly users: Pick<UsersService, 'locales'>;
  private unlisten: Array<() => Promise<void>> = [];
  /** Who else hears a resource's changes, besides the users a change is sent to (a shared game's people). */
  private readonly audiences = new Map<ResourceChange['resource'], Audience>();

  /**
   * `audiences` names, for a resource, the users its changes also go to besides those each change
   * is sent to (a game's, the people it is shared with); each reads through the change's executor
   * (its transaction, when it has one).
   */
  constructor(database: Database, users: Pick<UsersService, 'locales'>, limits: StreamLimits | undefined, audiences: Partial<Record<ResourceChange['resource'], Audience>> = {}) {
    this.database = database;
    this.users = users;
    this.hub = new StreamHub(limits);
    for (const [resource, of] of Object.entries(audiences)) this.audiences.set(resource as ResourceChange['resource'], of);
  }

  async start(): Promise<void> {
    // A malformed payload is not ours: ignored rather than break the listener.
    const parsed = <T>(payload: string, use: (value: T) => void) => {
      try {
        use(JSON.parse(payload) as T);
      } catch {
        /* ignored */
      }
    };
    this.unlisten = await Promise.all([
      this.database.listen(CHANNEL, (payload) => parsed<Delivery>(payload, (d) => this.hub.deliver(d)), { onReconnect: ({ since }) => this.catchUp(since) }),
      this.database.listen(
        CHANGES_CHANNEL,
        (payload) =>
          parsed<ChangeDelivery>(payload, ({ userIds, changes }) => {
            for (const userId of userIds) for (const change of changes) this.hub.publish(userId, change);
          }),
        // Changes are not stored, so those lost while the connection was down cannot be read back:
        // every open stream is told that anything may have changed, and its pages read again.
        { onReconnect: () => this.hub.publishToAll(liveResources.map((resource) => ({ resource, ids: [], type: 'updated' }))) },
      ),
      // The credits ledger's trigger names the user at each commit that moved their balance.
      this.database.listen(BALANCE_CHANNEL, (userId) => this.hub.publish(userId, { resource: 'transactions', ids: [], type: 'created' })),
    ]);
  }

  async stop(): Promise<void> {
    this.hub.closeAll();
    await Promise.all(this.unlisten.splice(0).map((unlisten) => unlisten()));
  }

  /**
   * Tells the users' open streams, on every replica, what changed. Given the caller's transaction
   * it is sent at commit, never for a rolled-back change; outside one, right away.
   */
  async changed(userIds: string | string[], changes: ResourceChange | ResourceChange[], executor: Executor = this.database.db): Promise<void> {
    const list = Array.isArray(changes) ? changes : [changes];
    const recipients = new Set(typeof userIds === 'string' ? [userIds] : userIds);
    for (const change of list) {
      const audience = this.audiences.get(change.resource);
      if (audience && change.ids.length) for (const id of await audience(change.ids, executor)) recipients.add(id);
    }
    const delivery: ChangeDelivery = { userIds: [...recipients], changes: list };
    await executor.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${JSON.stringify(delivery)})`);
  }

  /** Notifies a user; give the caller's transaction so the notice exists only if its cause does. */
  async notify(userId: string, notice: Notice, executor: Executor = this.database.db): Promise<Notification> {
    const [row] = await executor
      .insert(notifications)
      .values({ userId, key: notice.key, params: bounded(notice.params), link: notice.link?.slice(0, 500) ?? null })
      .returning();
    // The stream's text is in the language the user last read the site in.
    const locale = (await this.users.locales([userId], executor)).get(userId) ?? 'fr';
    const delivery = toDelivery(row!, locale);
    // pg_notify inside a transaction is sent at commit, never for a rolled-back one.
    await executor.execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(delivery)})`);
    return { id: row!.id, event: row!.event, data: delivery.data, read: row!.read, createdAt: row!.createdAt.toISOString() };
  }

  /** NOTIFYs sent while the LISTEN connection was down were lost: read them back for open streams. */
  private catchUp(since: Date): Promise<void> {
    const from = new Date(since.getTime() - CATCH_UP_MARGIN_MS);
    return this.hub.catchUp(async (userIds) => {
      const rows = await this.database.db
        .select()
        .from(notifications)
        .where(and(inArray(notifications.userId, userIds), gte(notifications.createdAt, from)))
        .orderBy(asc(notifications.seq))
        .limit(CATCH_UP_LIMIT);
      const locales = await this.users.locales([...new Set(rows.map((r) => r.userId))]);
      return rows.map((r) => toDelivery(r, locales.get(r.userId) ?? 'fr'));
    });
  }

  /** The user's notifications, newest first, their text in `locale`. */
  /** A deleted account's notices go. */
  async forget(userId: string): Promise<void> {
    await this.database.db.delete(notifications).where(eq(notifications.userId, userId));
  }

  async list(userId: string, locale: Locale, window: Window, onlyUnread = false) {
    const where = onlyUnread ? and(eq(notifications.userId, userId), eq(notifications.read, false)) : eq(notifications.userId, userId);
    const db = this.database.db;
    const [rows, [total]] = await Promise.all([
      db.select().from(notifications).where(where).orderBy(desc(notifications.seq)).limit(window.limit).offset(window.offset),
      db.select({ n: count() }).from(notifications).where(where),
    ]);
    return pageOf(
      rows.map((r) => toNotification(r, locale)),
      total?.n ?? 0,
      window,
    );
  }

  /** Marks one of the user's notifications read; false when it is not theirs. */
  async markRead(userId: string, id: string): Promise<boolean> {
    const rows = await this.database.db
      .update(notifications)
      .set({ read: true })
      .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
      .returning({ id: notifications.id });
    // The user's other tabs (the bell, the notifications page) show it read too.
    if (rows.length > 0) await this.changed(userId, { resource: 'notifications', ids: [id], type: 'updated' });
    return rows.length > 0;
  }

  /** What the user missed after the notification `lastEventId`, oldest first. */
  async missedSince(userId: string, lastEventId: string): Promise<Delivery[]> {
    const db = this.database.db;
    const [from] = await db
      .select({ seq: notifications.seq })
      .from(notifications)
      .where(and(eq(notifications.id, lastEventId), eq(notifications.userId, userId)));
    if (!from) return [];
    const rows = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, userId), gt(notifications.seq, from.seq)))
      .orderBy(asc(notifications.seq))
      .limit(500);
    const locale = (await this.users.locales([userId])).get(userId) ?? 'fr';
    return rows.map((r) => toDelivery(r, locale));
  }
}
