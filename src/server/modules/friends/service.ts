import { and, count, desc, eq, or, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { friendRequests, friendships } from '../../db/schema/friends.ts';
import { badRequest, conflict, notFound } from '../../lib/problems.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import type { Friend, FriendAddResult, FriendRequest, FriendRequestAnswer, Player } from '../../../contract/social.ts';
import type { ResourceChange } from '../../../contract/live.ts';
import type { BlocklistService } from '../blocklist/service.ts';
import type { MinecraftService } from '../minecraft/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { EventBus } from '../../events.ts';

const SOCIAL_LINK = '/dashboard/social';
/** Suggestions as a player types a name: a handful is what a menu shows. */
const SEARCH_LIMIT = 10;

/**
 * Friend requests and friendships. Every change between two users runs under a lock on the pair,
 * so two requests crossing at the same moment still end as one friendship, not two requests.
 */
export class FriendsService {
  private readonly db: Db;
  private readonly minecraft: MinecraftService;
  private readonly blocklist: BlocklistService;
  private readonly notifications: NotificationsService;
  private readonly events: EventBus;
  constructor(db: Db, minecraft: MinecraftService, blocklist: BlocklistService, notifications: NotificationsService, events: EventBus) {
    this.db = db;
    this.minecraft = minecraft;
    this.blocklist = blocklist;
    this.notifications = notifications;
    this.events = events;
    // A block ends a friendship and the requests between the two.
    events.on('blocklist.blocked', ({ tx, ownerId, blocked }) => this.sever(tx, ownerId, blocked.id));
  }

  /** Asks `targetId` to be friends, or accepts their pending request to `me` if there is one. */
  async request(me: string, targetId: string): Promise<FriendAddResult> {
    if (targetId === me) throw badRequest('friends.self', {}, [{ field: 'userId', key: 'field.isYourself' }]);
    const players = await this.minecraft.players([me, targetId]);
    const target = players.get(targetId);
    // A block, either way, answers exactly like an unknown user: it must not be discoverable.
    if (!target) throw notFound('user');
    const myName = players.get(me)?.name ?? 'A player';
    return this.db.transaction(async (tx) => {
      await lockPair(tx, me, targetId);
      if (await this.blocklist.eitherWay(me, targetId, tx)) throw notFound('user');
      if (await this.areFriends(me, targetId, tx)) throw conflict('friends.alreadyFriends');
      const [theirs] = await tx
        .delete(friendRequests)
        .where(and(eq(friendRequests.fromId, targetId), eq(friendRequests.toId, me)))
        .returning({ id: friendRequests.id });
      if (theirs) {
        await befriend(tx, me, targetId);
        await this.notifications.changed([me, targetId], [requestGone(theirs.id), friendsChanged('created')], tx);
        await this.notifications.notify(targetId, { key: 'friendRequest.accepted', params: { name: myName }, link: SOCIAL_LINK }, tx);
        return { status: 'ACCEPTED', requestId: theirs.id, user: target };
      }
      const [mine] = await tx.insert(friendRequests).values({ fromId: me, toId: targetId }).onConflictDoNothing().returning({ id: friendRequests.id });
      if (!mine) throw conflict('friends.requestPending');
      await this.notifications.changed([me, targetId], { resource: 'friendRequests', ids: [mine.id], type: 'created' }, tx);
      // The request waits on the Requests tab, where it is answered.
      await this.notifications.notify(targetId, { key: 'friendRequest.received', params: { name: myName }, link: `${SOCIAL_LINK}?tab=requests` }, tx);
      return { status: 'PENDING', requestId: mine.id, user: target };
    });
  }

  /** The same, to the platform user who linked this Minecraft name. */
  async requestByName(me: string, mcName: string): Promise<FriendAddResult> {
    return this.request(me, await this.minecraft.userOfName(mcName));
  }

  /**
   * Players `me` may send a request to, found by their BlockHost name (exact, or a prefix of three
   * characters or more): never `me`, and never anyone blocked either way, who is not to be found.
   */
  async search(me: string, q: string): Promise<Player[]> {
    const hidden = await this.blocklist.eitherWayIds(me);
    return this.minecraft.findPlayers(q, [me, ...hidden], SEARCH_LIMIT);
  }

  async answer(me: string, requestId: string, accept: boolean): Promise<FriendRequestAnswer> {
    // Read before the transaction: PGlite has one connection, which the transaction holds.
    const myName = (await this.minecraft.players([me])).get(me)?.name ?? 'A player';
    return this.db.transaction(async (tx) => {
      const [found] = await tx
        .select()
        .from(friendRequests)
        .where(and(eq(friendRequests.id, requestId), or(eq(friendRequests.fromId, me), eq(friendRequests.toId, me))));
      if (!found) throw notFound('friendRequest');
      if (found.fromId === me && accept) throw conflict('friends.onlyRecipientAccepts');
      await lockPair(tx, found.fromId, found.toId);
      const [deleted] = await tx.delete(friendRequests).where(eq(friendRequests.id, requestId)).returning({ id: friendRequests.id });
      // Answered by the other side in the meantime.
      if (!deleted) throw notFound('friendRequest');
      await this.notifications.changed([found.fromId, found.toId], accept ? [requestGone(requestId), friendsChanged('created')] : requestGone(requestId), tx);
      if (found.fromId === me) return { status: 'CANCELLED' };
      if (!accept) return { status: 'DECLINED' };
      await befriend(tx, found.fromId, me);
      await this.notifications.notify(found.fromId, { key: 'friendRequest.accepted', params: { name: myName }, link: SOCIAL_LINK }, tx);
      return { status: 'ACCEPTED' };
    });
  }

  async remove(me: string, friendId: string): Promise<void> {
    const removed = await this.db.transaction(async (tx) => {
      const n = await unfriend(tx, me, friendId);
      if (n > 0) await this.unfriended(tx, me, friendId);
      return n;
    });
    if (removed === 0) throw notFound('friend');
  }

  private async unfriended(tx: Tx, a: string, b: string): Promise<void> {
    await this.events.emit('friends.unfriended', { tx, a, b });
    // Its handlers took former friends out of each other's groups.
    await this.notifications.changed([a, b], [friendsChanged('deleted'), { resource: 'friendGroups', ids: [], type: 'updated' }], tx);
  }

  /** A deleted account's friendships and friend requests, both ways, go (docs/architecture.md, "Deleting an account"). */
  async forget(userId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(friendships).where(or(eq(friendships.userId, userId), eq(friendships.friendId, userId)));
      await tx.delete(friendRequests).where(or(eq(friendRequests.fromId, userId), eq(friendRequests.toId, userId)));
    });
  }

  async list(me: string, window: Window) {
    const where = eq(friendships.userId, me);
    const [rows, [total]] = await Promise.all([
      this.db.select().from(friendships).where(where).orderBy(desc(friendships.since), desc(friendships.friendId)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(friendships).where(where),
    ]);
    const players = await this.minecraft.players(rows.map((r) => r.friendId));
    const data: Friend[] = rows.flatMap((r) => {
      const p = players.get(r.friendId);
      return p ? [{ ...p, since: r.since.toISOString() }] : [];
    });
    return pageOf(data, total?.n ?? 0, window);
  }

  /** Pending requests to and from `me`, newest first. */
  async requests(me: string, window: Window) {
    const where = or(eq(friendRequests.fromId, me), eq(friendRequests.toId, me));
    const [rows, [total]] = await Promise.all([
      this.db.select().from(friendRequests).where(where).orderBy(desc(friendRequests.createdAt), desc(friendRequests.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(friendRequests).where(where),
    ]);
    const other = (r: (typeof rows)[number]) => (r.fromId === me ? r.toId : r.fromId);
    const players = await this.minecraft.players(rows.map(other));
    const data: FriendRequest[] = rows.flatMap((r) => {
      const user: Player | undefined = players.get(other(r));
      return user ? [{ id: r.id, direction: r.fromId === me ? ('OUTGOING' as const) : ('INCOMING' as const), user, createdAt: r.createdAt.toISOString() }] : [];
    });
    return pageOf(data, total?.n ?? 0, window);
  }

  /** Ids of every friend of `userId`: announces, group checks. */
  async friendIds(userId: string, executor: Executor = this.db): Promise<string[]> {
    const rows = await executor.select({ id: friendships.friendId }).from(friendships).where(eq(friendships.userId, userId));
    return rows.map((r) => r.id);
  }

  async areFriends(a: string, b: string, executor: Executor = this.db): Promise<boolean> {
    const [row] = await executor
      .select({ id: friendships.friendId })
      .from(friendships)
      .where(and(eq(friendships.userId, a), eq(friendships.friendId, b)));
    return Boolean(row);
  }

  /** A block's cleanup: no friendship and no request left between the two. */
  private async sever(tx: Tx, a: string, b: string): Promise<void> {
    await lockPair(tx, a, b);
    if ((await unfriend(tx, a, b)) > 0) await this.unfriended(tx, a, b);
    const requests = await tx
      .delete(friendRequests)
      .where(or(and(eq(friendRequests.fromId, a), eq(friendRequests.toId, b)), and(eq(friendRequests.fromId, b), eq(friendRequests.toId, a))))
      .returning({ id: friendRequests.id });
    if (requests.length) await this.notifications.changed([a, b], { resource: 'friendRequests', ids: requests.map((r) => r.id), type: 'deleted' }, tx);
  }
}

const requestGone = (id: string): ResourceChange => ({ resource: 'friendRequests', ids: [id], type: 'deleted' });
/** Friends are listed by the other user's id, which differs for each side: no ids. */
const friendsChanged = (type: 'created' | 'deleted'): ResourceChange => ({ resource: 'friends', ids: [], type });

/** A transaction-scoped lock on the unordered pair, taken before reading what lies between them. */
async function lockPair(tx: Tx, a: string, b: string) {
  const key = a < b ? `${a}:${b}` : `${b}:${a}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

async function befriend(tx: Tx, a: string, b: string) {
  await tx
    .insert(friendships)
    .values([
      { userId: a, friendId: b },
      { userId: b, friendId: a },
    ])
    .onConflictDoNothing();
}

async function unfriend(tx: Tx, a: string, b: string): Promise<number> {
  const rows = await tx
    .delete(friendships)
    .where(or(and(eq(friendships.userId, a), eq(friendships.friendId, b)), and(eq(friendships.userId, b), eq(friendships.friendId, a))))
    .returning({ id: friendships.userId });
  return rows.length;
}
