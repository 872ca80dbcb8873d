import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { gameDefinitions, gamePackages } from '../../db/schema/catalogue.ts';
import { badRequest, conflict, notFound } from '../../lib/problems.ts';
import { isStillReferenced } from '../../lib/db-errors.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import {
  isSupportedVersion,
  maxVersion,
  minVersion,
  type GameDefCreate,
  type GameDefinition,
  type GamePackage,
  type GamePackageCreate,
  type GamePackageUpdate,
} from '../../../contract/games.ts';

type DefinitionRow = typeof gameDefinitions.$inferSelect;
type PackageRow = typeof gamePackages.$inferSelect;

/** A definition with one of its packages, as the games module needs them to sell a game. */
export interface Offer {
  definition: GameDefinition;
  package: GamePackage;
}

function toPackage(row: PackageRow): GamePackage {
  return {
    id: row.id,
    definitionId: row.definitionId,
    name: row.name,
    ramMb: row.ramMb,
    maxPlayers: row.maxPlayers,
    periodDays: row.periodDays,
    priceCredits: row.priceCredits,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toDefinition(row: DefinitionRow, packages: PackageRow[]): GameDefinition {
  const prices = packages.map((p) => p.priceCredits);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    image: row.image,
    version: row.version,
    settings: row.settings,
    published: row.published,
    packages: packages.map(toPackage),
    priceFrom: prices.length ? Math.min(...prices) : null,
    rating: { average: row.ratingCount ? Math.round((row.ratingSum / row.ratingCount) * 100) / 100 : null, count: row.ratingCount },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function checkVersion(version: string) {
  if (!isSupportedVersion(version)) {
    throw badRequest(`Minecraft ${version} is not served: choose a version from ${minVersion} to ${maxVersion}`, [
      { field: 'version', message: `must be from ${minVersion} to ${maxVersion}` },
    ]);
  }
}

/** The catalogue: game definitions and their packages. Players see the published ones; staff edit them. */
export class CatalogueService {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  private async withPackages(rows: DefinitionRow[]): Promise<GameDefinition[]> {
    if (!rows.length) return [];
    const packages = await this.db
      .select()
      .from(gamePackages)
      .where(inArray(gamePackages.definitionId, rows.map((r) => r.id)))
      .orderBy(asc(gamePackages.priceCredits), asc(gamePackages.createdAt));
    return rows.map((r) => toDefinition(r, packages.filter((p) => p.definitionId === r.id)));
  }

  async list(window: Window, includeUnpublished: boolean) {
    const where = includeUnpublished ? undefined : eq(gameDefinitions.published, true);
    const [rows, [total]] = await Promise.all([
      this.db.select().from(gameDefinitions).where(where).orderBy(asc(gameDefinitions.createdAt), asc(gameDefinitions.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(gameDefinitions).where(where),
    ]);
    return pageOf(await this.withPackages(rows), total?.n ?? 0, window);
  }

  /** A definition; an unpublished one only for staff (anyone else gets 404). */
  async get(id: string, includeUnpublished = false): Promise<GameDefinition> {
    const [row] = await this.db.select().from(gameDefinitions).where(eq(gameDefinitions.id, id));
    if (!row || (!row.published && !includeUnpublished)) throw notFound('Game definition');
    const [definition] = await this.withPackages([row]);
    return definition!;
  }

  /** The English name of every definition, to keep the seed idempotent. */
  async englishNames(): Promise<Set<string>> {
    const rows = await this.db.select({ name: gameDefinitions.name }).from(gameDefinitions);
    return new Set(rows.map((r) => r.name.en));
  }

  async createDefinition(input: GameDefCreate): Promise<GameDefinition> {
    checkVersion(input.version);
    const [row] = await this.db
      .insert(gameDefinitions)
      .values({
        name: input.name,
        description: input.description,
        image: input.image ?? null,
        version: input.version,
        settings: input.settings ?? {},
        published: input.published ?? false,
      })
      .returning();
    return toDefinition(row!, []);
  }

  async updateDefinition(id: string, input: GameDefCreate): Promise<GameDefinition> {
    checkVersion(input.version);
    const [row] = await this.db
      .update(gameDefinitions)
      .set({
        name: input.name,
        description: input.description,
        image: input.image ?? null,
        version: input.version,
        settings: input.settings ?? {},
        // Left out, the published flag stays as it was: an edit must not take a game off the store.
        ...(input.published === undefined ? {} : { published: input.published }),
        updatedAt: sql`now()`,
      })
      .where(eq(gameDefinitions.id, id))
      .returning();
    if (!row) throw notFound('Game definition');
    return (await this.withPackages([row]))[0]!;
  }

  /** Deletes a definition and its packages, unless games use it. */
  async deleteDefinition(id: string): Promise<void> {
    try {
      const rows = await this.db.delete(gameDefinitions).where(eq(gameDefinitions.id, id)).returning({ id: gameDefinitions.id });
      if (!rows.length) throw notFound('Game definition');
    } catch (err) {
      if (isStillReferenced(err)) throw conflict('Games use this definition: it cannot be deleted (unpublish it instead)');
      throw err;
    }
  }

  async createPackage(input: GamePackageCreate): Promise<GamePackage> {
    const { definitionId, ...fields } = input;
    const [definition] = await this.db.select({ id: gameDefinitions.id }).from(gameDefinitions).where(eq(gameDefinitions.id, definitionId));
    if (!definition) throw notFound('Game definition');
    const [row] = await this.db.insert(gamePackages).values({ definitionId, ...fields }).returning();
    return toPackage(row!);
  }

  async updatePackage(id: string, input: GamePackageUpdate): Promise<GamePackage> {
    const [row] = await this.db.update(gamePackages).set({ ...input, updatedAt: sql`now()` }).where(eq(gamePackages.id, id)).returning();
    if (!row) throw notFound('Game package');
    return toPackage(row);
  }

  /** Deletes a package, unless games use it: the database refuses it in the same statement, so no game can slip in between. */
  async deletePackage(id: string): Promise<void> {
    try {
      const rows = await this.db.delete(gamePackages).where(eq(gamePackages.id, id)).returning({ id: gamePackages.id });
      if (!rows.length) throw notFound('Game package');
    } catch (err) {
      if (isStillReferenced(err)) throw conflict('Games use this package: it cannot be deleted');
      throw err;
    }
  }

  /** A published definition and one of its packages, for a purchase; 404 naming what is missing. */
  async offer(definitionId: string, packageId: string): Promise<Offer> {
    const definition = await this.get(definitionId);
    const pkg = definition.packages.find((p) => p.id === packageId);
    if (!pkg) throw notFound('Game package');
    return { definition, package: pkg };
  }

  /** Adds a review's rating to the definition's average, in the review's transaction. */
  async recordRating(executor: Executor, definitionId: string, rating: number): Promise<void> {
    await executor
      .update(gameDefinitions)
      .set({ ratingSum: sql`${gameDefinitions.ratingSum} + ${rating}`, ratingCount: sql`${gameDefinitions.ratingCount} + 1` })
      .where(eq(gameDefinitions.id, definitionId));
  }

  /** True when the definition exists (published or not). */
  async exists(definitionId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: gameDefinitions.id }).from(gameDefinitions).where(eq(gameDefinitions.id, definitionId));
    return !!row;
  }
}
