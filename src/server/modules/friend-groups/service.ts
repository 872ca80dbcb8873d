import { and, asc, count, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { friendGroupMembers, friendGroups } from '../../db/schema/friend-groups.ts';
import { badRequest, conflict, notFound } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import { MC_NAME_PATTERN } from '../../../contract/values.ts';
import type { Player, FriendGroup, FriendGroupDetail, FriendGroupImportReport, FriendGroupMember, ImportResult } from '../../../contract/social.ts';
import type { BlocklistService } from '../blocklist/service.ts';
import type { FriendsService } from '../friends/service.ts';
import type { MinecraftService } from '../minecraft/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { EventBus } from '../../events.ts';
import { whole } from '../../lib/personal-data.ts';

const MC_NAME = new RegExp(MC_NAME_PATTERN);
type GroupRow = typeof friendGroups.$inferSelect;
type MemberRow = typeof friendGroupMembers.$inferSelect;

function toGroup(row: GroupRow, members: number): FriendGroup {
  return { id: row.id, name: row.name, memberCount: members, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/**
 * A user's friend groups: named lists of friends and bare Minecraft names, used to fill a game's
 * whitelist or ops in one go. Another user's group is answered as missing.
 */
export class FriendGroupsService {
  private readonly db: Db;
  private readonly friends: FriendsService;
  private readonly blocklist: BlocklistService;
  private readonly minecraft: MinecraftService;
  private readonly notifications: NotificationsService;
  private readonly events: EventBus;
  constructor(db: Db, friends: FriendsService, blocklist: BlocklistService, minecraft: MinecraftService, notifications: NotificationsService, events: EventBus) {
    this.db = db;
    this.friends = friends;
    this.blocklist = blocklist;
    this.minecraft = minecraft;
    this.notifications = notifications;
    this.events = events;
    events.on('friends.unfriended', ({ tx, a, b }) => this.removeFormerFriends(tx, a, b));
    events.on('blocklist.blocked', ({ tx, ownerId, blocked }) => this.removeFromOwnerGroups(tx, ownerId, blocked));
  }

  /** Tells the other modules who joined or left a group, once committed (a game shared with it follows it). */
  private membership(groupId: string, joined: string[], left: string[]): Promise<void> {
    return this.events.emit('friendGroups.membershipChanged', { groupId, joined, left });
  }

  /** Tells the owner's open pages (another tab, a game's whitelist by group) that a group changed. */
  private changed(ownerId: string, ids: string[], type: 'created' | 'updated' | 'deleted' = 'updated', executor?: Tx): Promise<void> {
    return this.notifications.changed(ownerId, { resource: 'friendGroups', ids, type }, executor);
  }

  async create(ownerId: string, name: string): Promise<FriendGroup> {
    const [row] = await this.db.insert(friendGroups).values({ ownerId, name }).onConflictDoNothing().returning();
    if (!row) throw conflict('friendGroups.nameTaken', { name });
    await this.changed(ownerId, [row.id], 'created');
    return toGroup(row, 0);
  }

  /** A deleted account's groups go (their grants with them), and it leaves the groups of others. */
  async forget(userId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(friendGroups).where(eq(friendGroups.ownerId, userId));
      await tx.delete(friendGroupMembers).where(eq(friendGroupMembers.userId, userId));
    });
  }

  async list(ownerId: string, window: Window) {
    const where = eq(friendGroups.ownerId, ownerId);
    const [rows, [total]] = await Promise.all([
      this.db
        .select({ group: friendGroups, memberCount: count(friendGroupMembers.id) })
        .from(friendGroups)
        .leftJoin(friendGroupMembers, eq(friendGroupMembers.groupId, friendGroups.id))
        .where(where)
        .groupBy(friendGroups.id)
        .orderBy(asc(sql`lower(${friendGroups.name})`), asc(friendGroups.id))
        .limit(window.limit)
        .offset(window.offset),
      this.db.select({ n: count() }).from(friendGroups).where(where),
    ]);
    return pageOf(
      rows.map((r) => toGroup(r.group, r.memberCount)),
      total?.n ?? 0,
      window,
    );
  }

  async get(ownerId: string, id: string): Promise<FriendGroupDetail> {
    const [group, rows] = await Promise.all([
      this.owned(ownerId, id),
      this.db.select().from(friendGroupMembers).where(eq(friendGroupMembers.groupId, id)).orderBy(desc(friendGroupMembers.createdAt), asc(friendGroupMembers.id)),
    ]);
    return { ...toGroup(group, rows.length), members: await this.describe(rows) };
  }

  async rename(ownerId: string, id: string, name: string): Promise<FriendGroup> {
    let row: GroupRow | undefined;
    try {
      [row] = await this.db
        .update(friendGroups)
        .set({ name, updatedAt: sql`now()` })
        .where(and(eq(friendGroups.id, id), eq(friendGroups.ownerId, ownerId)))
        .returning();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('friendGroups.nameTaken', { name });
      throw err;
    }
    if (!row) throw notFound('friendGroup');
    await this.changed(ownerId, [id]);
    const [members] = await this.db.select({ n: count() }).from(friendGroupMembers).where(eq(friendGroupMembers.groupId, id));
    return toGroup(row, members?.n ?? 0);
  }

  async remove(ownerId: string, id: string): Promise<void> {
    await this.owned(ownerId, id);
    const members = await this.memberUserIds([id]);
    const rows = await this.db
      .delete(friendGroups)
      .where(and(eq(friendGroups.id, id), eq(friendGroups.ownerId, ownerId)))
      .returning({ id: friendGroups.id });
    if (rows.length === 0) throw notFound('friendGroup');
    await this.changed(ownerId, [id], 'deleted');
    await this.membership(id, [], members.get(id) ?? []);
  }

  /** Adds a friend by account; anyone else joins by Minecraft name instead. */
  async addFriend(ownerId: string, id: string, userId: string): Promise<FriendGroupMember> {
    await this.owned(ownerId, id);
    if (userId === ownerId) throw badRequest('friendGroups.self', {}, [{ field: 'userId', key: 'field.isYourself' }]);
    if (!(await this.friends.areFriends(ownerId, userId))) throw conflict('friendGroups.friendsOnly');
    const [row] = await this.db.insert(friendGroupMembers).values({ groupId: id, userId }).onConflictDoNothing().returning();
    if (!row) throw conflict('friendGroups.alreadyMember');
    await this.changed(ownerId, [id]);
    await this.membership(id, [userId], []);
    return (await this.describe([row]))[0]!;
  }

  async removeFriend(ownerId: string, id: string, userId: string): Promise<void> {
    await this.owned(ownerId, id);
    const rows = await this.db
      .delete(friendGroupMembers)
      .where(and(eq(friendGroupMembers.groupId, id), eq(friendGroupMembers.userId, userId)))
      .returning({ id: friendGroupMembers.id });
    if (rows.length === 0) throw notFound('groupMember');
    await this.changed(ownerId, [id]);
    await this.membership(id, [], [userId]);
  }

  async addName(ownerId: string, id: string, mcName: string): Promise<FriendGroupMember> {
    const [, blocked] = await Promise.all([this.owned(ownerId, id), this.blockedNameKeys(ownerId)]);
    if (blocked.has(mcName.toLowerCase())) throw conflict('friendGroups.blockedPlayer');
    const [row] = await this.db.insert(friendGroupMembers).values({ groupId: id, mcName, nameKey: mcName.toLowerCase() }).onConflictDoNothing().returning();
    if (!row) throw conflict('friendGroups.nameAlreadyInGroup');
    await this.changed(ownerId, [id]);
    return (await this.describe([row]))[0]!;
  }

  async removeName(ownerId: string, id: string, mcName: string): Promise<void> {
    await this.owned(ownerId, id);
    const rows = await this.db
      .delete(friendGroupMembers)
      .where(and(eq(friendGroupMembers.groupId, id), eq(friendGroupMembers.nameKey, mcName.toLowerCase())))
      .returning({ id: friendGroupMembers.id });
    if (rows.length === 0) throw notFound('groupMember');
    await this.changed(ownerId, [id]);
  }

  /**
   * Adds many Minecraft names at once and says, per name, what happened. Checks run in memory and
   * every valid name goes in one INSERT ... ON CONFLICT DO NOTHING: what it returns was added, the
   * rest was already there.
   */
  async importNames(ownerId: string, id: string, names: string[]): Promise<FriendGroupImportReport> {
    const [, blocked] = await Promise.all([this.owned(ownerId, id), this.blockedNameKeys(ownerId)]);
    const verdicts: (ImportResult | 'TRY')[] = [];
    const keys = new Set<string>();
    const values: { groupId: string; mcName: string; nameKey: string }[] = [];
    for (const name of names) {
      const key = name.toLowerCase();
      if (!MC_NAME.test(name)) verdicts.push('INVALID');
      else if (blocked.has(key)) verdicts.push('BLOCKED');
      else if (keys.has(key)) verdicts.push('ALREADY_MEMBER');
      else {
        keys.add(key);
        values.push({ groupId: id, mcName: name, nameKey: key });
        verdicts.push('TRY');
      }
    }
    const inserted = values.length
      ? new Set((await this.db.insert(friendGroupMembers).values(values).onConflictDoNothing().returning({ key: friendGroupMembers.nameKey })).map((r) => r.key))
      : new Set<string | null>();
    if (inserted.size) await this.changed(ownerId, [id]);
    const results = names.map((mcName, i) => {
      const verdict = verdicts[i]!;
      return { mcName, result: verdict === 'TRY' ? (inserted.has(mcName.toLowerCase()) ? 'ADDED' : 'ALREADY_MEMBER') : verdict } as const;
    });
    return { added: inserted.size, results };
  }

  /** The owner's group, or 404: what sharing a game with a group checks first. */
  async ownGroup(ownerId: string, id: string): Promise<{ id: string; name: string }> {
    const { name } = await this.owned(ownerId, id);
    return { id, name };
  }

  /** Ids of the groups `userId` is a member of by account (any owner's). */
  async groupsWith(userId: string, executor: Executor = this.db): Promise<string[]> {
    const rows = await executor.select({ id: friendGroupMembers.groupId }).from(friendGroupMembers).where(eq(friendGroupMembers.userId, userId));
    return rows.map((r) => r.id);
  }

  /** Each group's name and its members by account. */
  async describeGroups(ids: string[], executor: Executor = this.db): Promise<Map<string, { name: string; userIds: string[] }>> {
    if (ids.length === 0) return new Map();
    const groups = await executor.select({ id: friendGroups.id, name: friendGroups.name }).from(friendGroups).where(inArray(friendGroups.id, ids));
    const members = await this.memberUserIds(ids, executor);
    return new Map(groups.map((g) => [g.id, { name: g.name, userIds: members.get(g.id) ?? [] }]));
  }

  private async memberUserIds(ids: string[], executor: Executor = this.db): Promise<Map<string, string[]>> {
    const rows = await executor
      .select({ groupId: friendGroupMembers.groupId, userId: friendGroupMembers.userId })
      .from(friendGroupMembers)
      .where(and(inArray(friendGroupMembers.groupId, ids), isNotNull(friendGroupMembers.userId)));
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.groupId, [...(out.get(r.groupId) ?? []), r.userId!]);
    return out;
  }

  /** Minecraft names of every member (friends without a linked account have none), for whitelists. */
  async memberNames(ownerId: string, groupId: string): Promise<string[]> {
    await this.owned(ownerId, groupId);
    const rows = await this.db.select().from(friendGroupMembers).where(eq(friendGroupMembers.groupId, groupId));
    const players = await this.minecraft.players(rows.flatMap((r) => (r.userId ? [r.userId] : [])));
    const names = new Map<string, string>();
    for (const r of rows) {
      const name = r.mcName ?? (r.userId ? players.get(r.userId)?.mcName : null);
      if (name) names.set(name.toLowerCase(), name);
    }
    return [...names.values()];
  }

  /** Groups hold friends: when two users stop being friends, each leaves the other's groups (names added by hand stay). */
  private async removeFormerFriends(tx: Tx, a: string, b: string): Promise<void> {
    for (const [ownerId, userId] of [
      [a, b],
      [b, a],
    ] as const) {
      const groups = tx.select({ id: friendGroups.id }).from(friendGroups).where(eq(friendGroups.ownerId, ownerId));
      await tx.delete(friendGroupMembers).where(and(inArray(friendGroupMembers.groupId, groups), eq(friendGroupMembers.userId, userId)));
    }
  }

  /** A block's cleanup: the blocked user leaves every group of the blocker, by account and by name. */
  private async removeFromOwnerGroups(tx: Tx, ownerId: string, { id: userId, mcName }: Player): Promise<void> {
    const groups = tx.select({ id: friendGroups.id }).from(friendGroups).where(eq(friendGroups.ownerId, ownerId));
    await tx.delete(friendGroupMembers).where(and(inArray(friendGroupMembers.groupId, groups), eq(friendGroupMembers.userId, userId)));
    if (mcName) await tx.delete(friendGroupMembers).where(and(inArray(friendGroupMembers.groupId, groups), eq(friendGroupMembers.nameKey, mcName.toLowerCase())));
    await this.changed(ownerId, [], 'updated', tx);
  }

  private async owned(ownerId: string, id: string): Promise<GroupRow> {
    const [row] = await this.db
      .select()
      .from(friendGroups)
      .where(and(eq(friendGroups.id, id), eq(friendGroups.ownerId, ownerId)));
    if (!row) throw notFound('friendGroup');
    return row;
  }

  /** Lower-cased Minecraft names of the users the owner blocked. */
  private async blockedNameKeys(ownerId: string): Promise<Set<string>> {
    const ids = await this.blocklist.blockedBy(ownerId);
    if (ids.length === 0) return new Set();
    const players = await this.minecraft.players(ids);
    return new Set([...players.values()].flatMap((p) => (p.mcName ? [p.mcName.toLowerCase()] : [])));
  }

  private async describe(rows: MemberRow[]): Promise<FriendGroupMember[]> {
    const players = await this.minecraft.players(rows.flatMap((r) => (r.userId ? [r.userId] : [])));
    return rows.map((r) => {
      const player = r.userId ? players.get(r.userId) : undefined;
      return { id: r.id, userId: r.userId, name: player?.name ?? null, mcName: r.mcName ?? player?.mcName ?? null, addedAt: r.createdAt.toISOString() };
    });
  }

  /** For a person's data export: their groups with their members, and the names of the others' groups they are in. */
  async personalData(userId: string) {
    const owned = await Promise.all((await this.list(userId, whole)).data.map((group) => this.get(userId, group.id)));
    const memberOf = [...(await this.describeGroups(await this.groupsWith(userId))).entries()].map(([id, group]) => ({ id, name: group.name }));
    return { owned, memberOf };
  }
}
