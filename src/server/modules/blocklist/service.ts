import { and, count, desc, eq, inArray, or } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { blocks } from '../../db/schema/blocklist.ts';
import { badRequest, conflict, notFound } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import type { BlockedUser } from '../../../contract/social.ts';
import type { MinecraftService } from '../minecraft/service.ts';
import type { UsersService } from '../users/service.ts';
import type { EventBus } from '../../events.ts';

/**
 * Who blocked whom. A block is told on the bus (`blocklist.blocked`, inside its transaction):
 * friends, groups and sharing undo their state in the same transaction, and this module depends
 * on none of them.
 */
export class BlocklistService {
  private readonly db: Db;
  private readonly users: UsersService;
  private readonly minecraft: MinecraftService;
  private readonly events: EventBus;
  constructor(db: Db, users: UsersService, minecraft: MinecraftService, events: EventBus) {
    this.db = db;
    this.users = users;
    this.minecraft = minecraft;
    this.events = events;
  }

  async block(ownerId: string, userId: string): Promise<BlockedUser> {
    if (userId === ownerId) throw badRequest('blocklist.self', {}, [{ field: 'userId', key: 'field.isYourself' }]);
    const player = (await this.minecraft.players([userId])).get(userId);
    if (!player) throw notFound('user');
    const row = await this.db.transaction(async (tx) => {
      const [inserted] = await tx.insert(blocks).values({ ownerId, blockedId: userId }).onConflictDoNothing().returning();
      if (!inserted) throw conflict('blocklist.alreadyBlocked');
      await this.events.emit('blocklist.blocked', { tx, ownerId, blocked: player });
      return inserted;
    });
    return { ...player, blockId: row.id, blockedAt: row.createdAt.toISOString() };
  }

  /** `id` is the block's id or the blocked user's id. */
  async unblock(ownerId: string, id: string): Promise<void> {
    const removed = await this.db
      .delete(blocks)
      .where(and(eq(blocks.ownerId, ownerId), or(eq(blocks.id, id), eq(blocks.blockedId, id))))
      .returning({ id: blocks.id });
    if (removed.length === 0) throw notFound('block');
  }

  /** A deleted account's blocks go, those it made and those made of it: there is no one left to block. */
  async forget(userId: string): Promise<void> {
    await this.db.delete(blocks).where(or(eq(blocks.ownerId, userId), eq(blocks.blockedId, userId)));
  }

  async list(ownerId: string, window: Window) {
    const [rows, [total]] = await Promise.all([
      this.db.select().from(blocks).where(eq(blocks.ownerId, ownerId)).orderBy(desc(blocks.createdAt), desc(blocks.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(blocks).where(eq(blocks.ownerId, ownerId)),
    ]);
    const players = await this.minecraft.players(rows.map((r) => r.blockedId));
    const data = rows.flatMap((r) => {
      const player = players.get(r.blockedId);
      return player ? [{ ...player, blockId: r.id, blockedAt: r.createdAt.toISOString() }] : [];
    });
    return pageOf(data, total?.n ?? 0, window);
  }

  /** True when either user blocked the other. */
  async eitherWay(a: string, b: string, executor: Executor = this.db): Promise<boolean> {
    const [row] = await executor
      .select({ id: blocks.id })
      .from(blocks)
      .where(or(and(eq(blocks.ownerId, a), eq(blocks.blockedId, b)), and(eq(blocks.ownerId, b), eq(blocks.blockedId, a))))
      .limit(1);
    return Boolean(row);
  }

  /** The blocks between these users, either way, as `[owner, blocked]` pairs: who of them must not meet. */
  async among(userIds: string[], executor: Executor = this.db): Promise<Array<[string, string]>> {
    if (userIds.length < 2) return [];
    const rows = await executor
      .select({ owner: blocks.ownerId, blocked: blocks.blockedId })
      .from(blocks)
      .where(and(inArray(blocks.ownerId, userIds), inArray(blocks.blockedId, userIds)));
    return rows.map((r) => [r.owner, r.blocked]);
  }

  /** Ids of the users `userId` blocked or was blocked by: they must not find each other. */
  async eitherWayIds(userId: string): Promise<string[]> {
    const rows = await this.db
      .select({ owner: blocks.ownerId, blocked: blocks.blockedId })
      .from(blocks)
      .where(or(eq(blocks.ownerId, userId), eq(blocks.blockedId, userId)));
    return rows.map((r) => (r.owner === userId ? r.blocked : r.owner));
  }

  /** Ids of the users `ownerId` blocked. */
  async blockedBy(ownerId: string): Promise<string[]> {
    const rows = await this.db.select({ id: blocks.blockedId }).from(blocks).where(eq(blocks.ownerId, ownerId));
    return rows.map((r) => r.id);
  }
}
