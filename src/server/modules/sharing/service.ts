import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database, Db, Executor, Tx } from '../../db/client.ts';
import { gameAccess } from '../../db/schema/sharing.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/problems.ts';
import { allows, higher, type GameAccessCreate, type GameAccessGrant, type GameAccessLevel, type GameRole, type SharedGame } from '../../../contract/sharing.ts';
import type { AuditService } from '../audit/service.ts';
import type { FriendGroupsService } from '../friend-groups/service.ts';
import type { FriendsService } from '../friends/service.ts';
import type { GamesService } from '../games/service.ts';
import type { MinecraftService } from '../minecraft/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { AccessScope, EventBus, LevelCheck } from '../../events.ts';
import type { GameAccessCheck } from './access.ts';

type GrantRow = typeof gameAccess.$inferSelect;

/** Where `ended` tells every replica, at commit, that some access may have ended. */
const ACCESS_CHANNEL = 'game_access_ended';
/** Users named in one NOTIFY, well within its 8 000 bytes. */
const USERS_PER_NOTICE = 100;

interface SharingDeps {
  database: Database;
  games: GamesService;
  friends: FriendsService;
  friendGroups: FriendGroupsService;
  minecraft: MinecraftService;
  notifications: NotificationsService;
  audit: AuditService;
  events: EventBus;
  log: { error(obj: object, msg: string): void };
}

/**
 * Sharing a game (docs/architecture.md, "Sharing"): its owner grants a friend, or one of their
 * friend groups, a role on it, and every game call checks the caller's level through `require`.
 * A group's grant is read through the group's members at each call, so it follows the group; two
 * grants give the higher role. Someone with no role is told the game does not exist (404).
 */
export class SharingService {
  private readonly db: Db;
  private readonly deps: SharingDeps;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(db: Db, deps: SharingDeps) {
    this.db = db;
    this.deps = deps;
    deps.events.on('friends.unfriended', ({ tx, a, b }) => this.unfriended(tx, a, b));
    // A block unfriends (above) when they were friends; either way each one's access is checked again.
    deps.events.on('blocklist.blocked', ({ tx, ownerId, blocked }) => this.ended({ userIds: [ownerId, blocked.id] }, tx));
    deps.events.on('friendGroups.membershipChanged', ({ groupId, joined, left }) => this.membershipChanged(groupId, joined, left));
    deps.events.on('games.deleted', ({ tx, gameId, ownerId }) => this.gameDeleted(tx, gameId, ownerId));
  }

  /** A deleted game's grants go, and whoever had it open, its owner included, loses it (console streams, download links). */
  private async gameDeleted(tx: Tx, gameId: string, ownerId: string): Promise<void> {
    const people = await this.audience([gameId], tx);
    await tx.delete(gameAccess).where(eq(gameAccess.gameId, gameId));
    await this.ended({ userIds: [ownerId, ...people], gameIds: [gameId] }, tx);
  }

  /** Tells this replica's modules (`sharing.accessLost`) that some people may have lost their access. */
  private lost(scope: AccessScope): void {
    void this.deps.events
      .emit('sharing.accessLost', { scope, levelOf: (userId, gameId) => this.levelOf(userId, gameId) })
      .catch((err: unknown) => this.deps.log.error({ err, scope }, 'handling a loss of access failed'));
  }

  async start(): Promise<void> {
    this.unlisten = await this.deps.database.listen(
      ACCESS_CHANNEL,
      (payload) => {
        let scope: AccessScope;
        try {
          scope = JSON.parse(payload) as AccessScope;
        } catch {
          return;
        }
        this.lost(scope);
      },
      // What was said while the connection was down is lost: everyone's access is checked again.
      { onReconnect: () => this.lost({}) },
    );
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  /** The caller's level on a game, or null when they have none (or there is no such game). */
  async levelOf(userId: string, gameId: string, executor: Executor = this.db): Promise<GameAccessCheck | null> {
    const game = await this.deps.games.ownerOf(gameId, executor);
    if (!game) return null;
    if (game.ownerId === userId) return { gameId, ownerId: userId, level: 'OWNER' };
    const role = await this.roleOf(userId, gameId, executor);
    return role ? { gameId, ownerId: game.ownerId, level: role } : null;
  }

  /** The caller's level when it allows `needed`: 404 with no level at all, 403 with too low a one. */
  async require(userId: string, gameId: string, needed: GameAccessLevel): Promise<GameAccessCheck> {
    const access = await this.levelOf(userId, gameId);
    if (!access) throw notFound('game');
    if (!allows(access.level, needed)) throw forbidden('sharing.roleTooLow');
    return access;
  }

  /** The highest role a non-owner holds on a game, directly or through a group they are in. */
  private async roleOf(userId: string, gameId: string, executor: Executor = this.db): Promise<GameRole | null> {
    const groups = await this.deps.friendGroups.groupsWith(userId, executor);
    const grants = await executor
      .select({ role: gameAccess.role })
      .from(gameAccess)
      .where(and(eq(gameAccess.gameId, gameId), groups.length ? or(eq(gameAccess.friendId, userId), inArray(gameAccess.groupId, groups)) : eq(gameAccess.friendId, userId)));
    return grants.reduce<GameRole | null>((best, { role }) => (best ? (higher(best, role) as GameRole) : role), null);
  }

  /** The game's grants, for its owner. */
  async list(ownerId: string, gameId: string): Promise<GameAccessGrant[]> {
    await this.require(ownerId, gameId, 'OWNER');
    const rows = await this.db.select().from(gameAccess).where(eq(gameAccess.gameId, gameId)).orderBy(gameAccess.createdAt);
    return this.describe(rows);
  }

  /** Grants a friend or one of the owner's groups a role: 409 when that one already has a grant on the game. */
  async grant(ownerId: string, gameId: string, input: GameAccessCreate): Promise<GameAccessGrant> {
    const game = await this.require(ownerId, gameId, 'OWNER');
    const { friendId, groupId, role } = input;
    if ((friendId === undefined) === (groupId === undefined)) throw badRequest('sharing.oneTarget', {}, [{ field: friendId ? 'groupId' : 'friendId', key: 'field.required' }]);
    if (friendId !== undefined) {
      if (friendId === ownerId) throw badRequest('sharing.self', {}, [{ field: 'friendId', key: 'field.isYourself' }]);
      if (!(await this.deps.friends.areFriends(ownerId, friendId))) throw conflict('sharing.friendsOnly');
    } else {
      await this.deps.friendGroups.ownGroup(ownerId, groupId!);
    }
    let row: GrantRow;
    try {
      [row] = (await this.db
        .insert(gameAccess)
        .values({ gameId, friendId: friendId ?? null, groupId: groupId ?? null, role })
        .returning()) as [GrantRow];
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('sharing.alreadyShared');
      throw err;
    }
    await this.deps.audit.record(this.db, { actorId: ownerId, action: 'game.share', entity: 'game', entityId: gameId, after: { friendId, groupId, role } });
    const [grant] = await this.describe([row]);
    const people = await this.peopleOf(row);
    await this.tell(people, game, 'game.shared', role);
    await this.changed(people, gameId);
    return grant!;
  }

  async update(ownerId: string, gameId: string, accessId: string, role: GameRole): Promise<GameAccessGrant> {
    const game = await this.require(ownerId, gameId, 'OWNER');
    const [row] = await this.db
      .update(gameAccess)
      .set({ role })
      .where(and(eq(gameAccess.id, accessId), eq(gameAccess.gameId, gameId)))
      .returning();
    if (!row) throw notFound('gameAccess');
    await this.deps.audit.record(this.db, { actorId: ownerId, action: 'game.share', entity: 'game', entityId: gameId, after: { accessId, role } });
    const people = await this.peopleOf(row);
    await this.changed(people, gameId);
    await this.ended({ userIds: people, gameIds: [game.gameId] });
    return (await this.describe([row]))[0]!;
  }

  async revoke(ownerId: string, gameId: string, accessId: string): Promise<void> {
    const game = await this.require(ownerId, gameId, 'OWNER');
    const [row] = await this.db
      .delete(gameAccess)
      .where(and(eq(gameAccess.id, accessId), eq(gameAccess.gameId, gameId)))
      .returning();
    if (!row) throw notFound('gameAccess');
    await this.deps.audit.record(this.db, { actorId: ownerId, action: 'game.unshare', entity: 'game', entityId: gameId, before: { friendId: row.friendId, groupId: row.groupId, role: row.role } });
    // Those who still reach it through another grant keep it, and are not told they lost it.
    const people = await this.peopleOf(row);
    const still = await this.stillIn(people, gameId);
    await this.tell(
      people.filter((id) => !still.has(id)),
      game,
      'game.unshared',
    );
    await this.changed(people, gameId);
    await this.ended({ userIds: people, gameIds: [gameId] });
  }

  /** The games shared with the caller, with their owner and the caller's role. */
  async sharedWith(userId: string): Promise<SharedGame[]> {
    const groups = await this.deps.friendGroups.groupsWith(userId);
    const rows = await this.db
      .select({ gameId: gameAccess.gameId, role: gameAccess.role })
      .from(gameAccess)
      .where(groups.length ? or(eq(gameAccess.friendId, userId), inArray(gameAccess.groupId, groups)) : eq(gameAccess.friendId, userId));
    const roles = new Map<string, GameRole>();
    for (const { gameId, role } of rows) roles.set(gameId, roles.has(gameId) ? (higher(roles.get(gameId)!, role) as GameRole) : role);
    const games = await this.deps.games.summaries([...roles.keys()]);
    const owners = await this.deps.minecraft.players(games.map((g) => g.ownerId));
    return games
      .filter((g) => g.ownerId !== userId)
      .map((g) => ({ id: g.id, name: g.name, version: g.version, status: g.status, owner: { id: g.ownerId, name: owners.get(g.ownerId)?.name ?? '' }, role: roles.get(g.id)! }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Users a game is shared with, whatever their role: who hears its changes besides its owner. */
  async audience(gameIds: string[], executor: Executor = this.db): Promise<string[]> {
    if (gameIds.length === 0) return [];
    const rows = await executor.select().from(gameAccess).where(inArray(gameAccess.gameId, gameIds));
    const groups = await this.deps.friendGroups.describeGroups(
      rows.flatMap((r) => (r.groupId ? [r.groupId] : [])),
      executor,
    );
    return [...new Set(rows.flatMap((r) => (r.friendId ? [r.friendId] : (groups.get(r.groupId!)?.userIds ?? []))))];
  }

  /**
   * Two users stopped being friends (or one blocked the other): each loses the grants the other
   * gave. Former friends have already left each other's groups, in this transaction.
   */
  private async unfriended(tx: Tx, a: string, b: string): Promise<void> {
    for (const [ownerId, friendId] of [
      [a, b],
      [b, a],
    ] as const) {
      const owned = await tx.select({ id: gameAccess.id, gameId: gameAccess.gameId }).from(gameAccess).where(eq(gameAccess.friendId, friendId));
      for (const grant of owned) {
        const game = await this.deps.games.ownerOf(grant.gameId, tx);
        if (game?.ownerId !== ownerId) continue;
        await tx.delete(gameAccess).where(eq(gameAccess.id, grant.id));
      }
    }
    await this.ended({ userIds: [a, b] }, tx);
  }

  /**
   * Members joined or left a group (or it was deleted, its grants with it): the games shared with
   * it gain or lose them.
   */
  private async membershipChanged(groupId: string, joined: string[], left: string[]): Promise<void> {
    const grants = await this.db.select().from(gameAccess).where(eq(gameAccess.groupId, groupId));
    for (const grant of grants) {
      const game = await this.deps.games.ownerOf(grant.gameId);
      if (!game) continue;
      const check = { gameId: game.id, ownerId: game.ownerId, level: 'OWNER' as const };
      await this.tell(joined, check, 'game.shared', grant.role);
      const still = await this.stillIn(left, grant.gameId);
      await this.tell(
        left.filter((id) => !still.has(id)),
        check,
        'game.unshared',
      );
      await this.changed([...joined, ...left], grant.gameId);
    }
    // On any game: a deleted group's grants are gone already.
    if (left.length) await this.ended({ userIds: left });
  }

  /**
   * Some people may have lost their access to some games: what they left behind is undone now, in
   * `executor`'s transaction, and every replica checks their open streams again once it commits.
   */
  async ended(scope: AccessScope, executor: Executor = this.db): Promise<void> {
    const holds: LevelCheck = async (userId, gameId, needed) => {
      const access = await this.levelOf(userId, gameId, executor);
      return Boolean(access && allows(access.level, needed));
    };
    await this.deps.events.emit('sharing.accessEnded', { scope, executor, levelOf: holds });
    const userIds = scope.userIds ?? [];
    for (let i = 0; i < userIds.length; i += USERS_PER_NOTICE) {
      const part: AccessScope = { ...scope, userIds: userIds.slice(i, i + USERS_PER_NOTICE) };
      await executor.execute(sql`select pg_notify(${ACCESS_CHANNEL}, ${JSON.stringify(part)})`);
    }
  }

  private async stillIn(userIds: string[], gameId: string): Promise<Set<string>> {
    const still = new Set<string>();
    for (const id of userIds) if (await this.roleOf(id, gameId)) still.add(id);
    return still;
  }

  /** The users a grant reaches: its friend, or its group's members by account. */
  private async peopleOf(row: GrantRow): Promise<string[]> {
    if (row.friendId) return [row.friendId];
    return (await this.deps.friendGroups.describeGroups([row.groupId!])).get(row.groupId!)?.userIds ?? [];
  }

  private async tell(userIds: string[], game: GameAccessCheck, key: 'game.shared' | 'game.unshared', role?: GameRole): Promise<void> {
    if (userIds.length === 0) return;
    const summary = await this.deps.games.ownerOf(game.gameId);
    const owner = (await this.deps.minecraft.players([game.ownerId])).get(game.ownerId);
    const params = { name: summary?.name ?? '', owner: owner?.name ?? '', ...(role ? { role } : {}) };
    for (const userId of userIds) await this.deps.notifications.notify(userId, { key, params, link: key === 'game.shared' ? `/dashboard/game/${game.gameId}` : '/dashboard' });
  }

  private async changed(userIds: string[], gameId: string): Promise<void> {
    if (userIds.length) await this.deps.notifications.changed(userIds, { resource: 'games', ids: [gameId], type: 'updated' });
  }

  private async describe(rows: GrantRow[]): Promise<GameAccessGrant[]> {
    const friends = await this.deps.minecraft.players(rows.flatMap((r) => (r.friendId ? [r.friendId] : [])));
    const groups = await this.deps.friendGroups.describeGroups(rows.flatMap((r) => (r.groupId ? [r.groupId] : [])));
    return rows.map((r) => {
      const group = r.groupId ? groups.get(r.groupId) : undefined;
      return {
        id: r.id,
        role: r.role,
        friend: r.friendId ? { id: r.friendId, name: friends.get(r.friendId)?.name ?? '' } : null,
        group: r.groupId ? { id: r.groupId, name: group?.name ?? '', members: group?.userIds.length ?? 0 } : null,
        createdAt: r.createdAt.toISOString(),
      };
    });
  }

  /** For a person's data export: the grants on their games, and the games shared with them. */
  /**
   * The grants a deleted account held on others' games go (those on its own games went with the
   * games), and whatever it still holds open on them ends (download links, console streams), as
   * for anyone who loses a game.
   */
  async forget(userId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(gameAccess).where(eq(gameAccess.friendId, userId));
      await this.ended({ userIds: [userId] }, tx);
    });
  }

  async personalData(userId: string) {
    const owned = await this.deps.games.ownedIds(userId);
    return {
      given: await Promise.all(owned.map(async (gameId) => ({ gameId, grants: await this.list(userId, gameId) }))),
      received: await this.sharedWith(userId),
    };
  }
}
