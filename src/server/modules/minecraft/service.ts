import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { minecraftProfiles } from '../../db/schema/minecraft.ts';
import { HttpProblem, notFound } from '../../lib/problems.ts';
import type { UsersService } from '../users/service.ts';
import type { Player } from '../../../contract/social.ts';
import { generatedSkin, headOf } from './skins.ts';
import { ResolverUnavailable, type MinecraftAccount, type MinecraftProfile, type MinecraftResolver } from './resolver.ts';

/** A name changes hands rarely (30 days apart at least); skins change any time. */
const NAME_TTL_MS = 24 * 3600_000;
const SKIN_TTL_MS = 3600_000;

const unavailable = () => new HttpProblem(503, 'minecraft.unavailable', {}, { headers: { 'retry-after': '60' } });

/**
 * Minecraft accounts through the configured resolver, with every answer kept in the database: a
 * fresh row spares a call, a stale one answers when the resolver is rate limited or down.
 */
export class MinecraftService {
  private readonly db: Db;
  private readonly resolver: MinecraftResolver;
  private readonly users: UsersService;
  constructor(db: Db, resolver: MinecraftResolver, users: UsersService) {
    this.db = db;
    this.resolver = resolver;
    this.users = users;
  }

  /** The account of a name (valid per the contract); 404 when none, 503 when unknown and unreachable. */
  async account(name: string): Promise<MinecraftAccount> {
    const [cached] = await this.db.select().from(minecraftProfiles).where(eq(minecraftProfiles.nameKey, name.toLowerCase())).orderBy(desc(minecraftProfiles.nameExpiresAt)).limit(1);
    if (cached && cached.nameExpiresAt > new Date()) return { uuid: cached.uuid, name: cached.name };
    let found: MinecraftAccount | null;
    try {
      found = await this.resolver.byName(name);
    } catch (err) {
      if (!(err instanceof ResolverUnavailable)) throw err;
      if (cached) return { uuid: cached.uuid, name: cached.name };
      throw unavailable();
    }
    if (!found) throw notFound('minecraftPlayer');
    await this.remember(found);
    return found;
  }

  /** Name and skin of a UUID, from the cache while fresh. */
  async profile(uuid: string): Promise<MinecraftProfile> {
    const [cached] = await this.db.select().from(minecraftProfiles).where(eq(minecraftProfiles.uuid, uuid));
    if (cached?.skin && cached.skinExpiresAt && cached.skinExpiresAt > new Date()) return { uuid, name: cached.name, skin: Buffer.from(cached.skin, 'base64') };
    let found: MinecraftProfile | null;
    try {
      found = await this.resolver.profile(uuid, cached?.name);
    } catch (err) {
      if (!(err instanceof ResolverUnavailable)) throw err;
      if (cached) return { uuid, name: cached.name, skin: cached.skin ? Buffer.from(cached.skin, 'base64') : generatedSkin(cached.name) };
      throw unavailable();
    }
    if (!found) throw notFound('minecraftPlayer');
    await this.remember(found, found.skin);
    return found;
  }

  /** The face of the skin, or of a generated one when the skin is not a format we read. */
  async head(uuid: string): Promise<{ name: string; head: Buffer }> {
    const { name, skin } = await this.profile(uuid);
    try {
      return { name, head: headOf(skin) };
    } catch {
      return { name, head: headOf(generatedSkin(name)) };
    }
  }

  /** Last known names of these UUIDs, from the cache only: lists must not wait on Mojang. */
  async knownNames(uuids: string[]): Promise<Map<string, string>> {
    if (uuids.length === 0) return new Map();
    const rows = await this.db.select({ uuid: minecraftProfiles.uuid, name: minecraftProfiles.name }).from(minecraftProfiles).where(inArray(minecraftProfiles.uuid, uuids));
    return new Map(rows.map((r) => [r.uuid, r.name]));
  }

  /** These users with their linked Minecraft names, keyed by user id; unknown ids are left out. */
  async players(userIds: string[]): Promise<Map<string, Player>> {
    const users = await this.users.summaries([...new Set(userIds)]);
    const names = await this.knownNames(users.flatMap((u) => (u.mcUuid ? [u.mcUuid] : [])));
    return new Map(users.map((u) => [u.id, { id: u.id, name: u.name, mcUuid: u.mcUuid, mcName: u.mcUuid ? (names.get(u.mcUuid) ?? null) : null }]));
  }

  /** Users found by their platform name (see `UsersService.searchByName`), in its order, with their Minecraft names. */
  async findPlayers(q: string, excluded: string[], limit: number): Promise<Player[]> {
    const found = await this.users.searchByName(q, excluded, limit);
    const names = await this.knownNames(found.flatMap((u) => (u.mcUuid ? [u.mcUuid] : [])));
    return found.map((u) => ({ id: u.id, name: u.name, mcUuid: u.mcUuid, mcName: u.mcUuid ? (names.get(u.mcUuid) ?? null) : null }));
  }

  /** Links the user's Minecraft account by name; 409 when another user holds it. */
  async link(userId: string, name: string): Promise<MinecraftAccount> {
    const account = await this.account(name);
    await this.users.linkMinecraft(userId, account.uuid);
    return account;
  }

  /** The platform user who linked this Minecraft name; 404 "User not found" when nobody did. */
  async userOfName(name: string): Promise<string> {
    const { uuid } = await this.account(name);
    const userId = await this.users.idByMcUuid(uuid);
    // The same answer as for a user who blocked the caller, so a block cannot be told apart.
    if (!userId) throw notFound('user');
    return userId;
  }

  private async remember(account: MinecraftAccount, skin?: Buffer) {
    const now = Date.now();
    const values = {
      uuid: account.uuid,
      name: account.name,
      nameKey: account.name.toLowerCase(),
      nameExpiresAt: new Date(now + NAME_TTL_MS),
      ...(skin ? { skin: skin.toString('base64'), skinExpiresAt: new Date(now + SKIN_TTL_MS) } : {}),
    };
    const { uuid: _key, ...update } = values;
    await this.db
      .insert(minecraftProfiles)
      .values(values)
      .onConflictDoUpdate({ target: minecraftProfiles.uuid, set: { ...update, updatedAt: sql`now()` } });
  }
}
