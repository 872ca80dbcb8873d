import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Db, Executor } from '../../db/client.ts';
import { AnswerCache, type CachedAnswer } from '../../lib/answer-cache.ts';
import { gameDefinitions, gamePackages } from '../../db/schema/catalogue.ts';
import { badRequest, conflict, notFound } from '../../lib/problems.ts';
import { isStillReferenced } from '../../lib/db-errors.ts';
import { pageOf, type Window } from '../../lib/paging.ts';
import type { AuditService } from '../audit/service.ts';
import { srcSetOf, type DefinitionImages } from './images.ts';
import { type GameDefCreate, type GameDefinition, type GamePackage, type GamePackageCreate, type GamePackageUpdate } from '../../../contract/catalogue.ts';
import { isSupportedVersion, maxVersion, minVersion, type LocalizedText } from '../../../contract/games.ts';

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
    description: row.description ?? null,
    ramMb: row.ramMb,
    maxPlayers: row.maxPlayers,
    periodDays: row.periodDays,
    priceCredits: row.priceCredits,
    backupsKept: row.backupsKept,
    backupsMaxMb: row.backupsMaxMb,
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
    imageSrcSet: srcSetOf(row.image),
    version: row.version,
    allowedVersions: row.allowedVersions,
    settings: row.settings,
    published: row.published,
    packages: packages.map(toPackage),
    priceFrom: prices.length ? Math.min(...prices) : null,
    rating: { average: row.ratingCount ? Math.round((row.ratingSum / row.ratingCount) * 100) / 100 : null, count: row.ratingCount },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function checkVersion(version: string, field = 'version') {
  if (!isSupportedVersion(version)) {
    throw badRequest('catalogue.versionNotServed', { version, min: minVersion, max: maxVersion }, [{ field, key: 'field.versionRange', params: { min: minVersion, max: maxVersion } }]);
  }
}

function checkVersions(input: GameDefCreate) {
  checkVersion(input.version);
  (input.allowedVersions ?? []).forEach((v, i) => checkVersion(v, `allowedVersions/${i}`));
}

/**
 * The catalogue: game definitions and their packages. Players see the published ones; staff edit
 * them, each write audited in its own transaction. A write given no actor is the seed's.
 */
/** NOTIFYed by migration 0021's triggers when game_definitions or game_packages change. */
const CATALOGUE_CHANNEL = 'catalogue_changed';

export class CatalogueService {
  private readonly db: Db;
  private readonly audit: AuditService;
  private readonly images: DefinitionImages;
  /** The public catalogue's answers, ready to send; dropped when a definition or package changes. */
  readonly answers: AnswerCache;

  constructor(db: Db, deps: { audit: AuditService; images: DefinitionImages; database: Database }) {
    this.db = db;
    this.audit = deps.audit;
    this.images = deps.images;
    this.answers = new AnswerCache(deps.database, CATALOGUE_CHANNEL);
  }

  private async withPackages(rows: DefinitionRow[], executor: Executor = this.db): Promise<GameDefinition[]> {
    if (!rows.length) return [];
    const packages = await executor
      .select()
      .from(gamePackages)
      .where(
        inArray(
          gamePackages.definitionId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(gamePackages.priceCredits), asc(gamePackages.createdAt));
    return rows.map((r) =>
      toDefinition(
        r,
        packages.filter((p) => p.definitionId === r.id),
      ),
    );
  }

  async list(window: Window, includeUnpublished: boolean) {
    const where = includeUnpublished ? undefined : eq(gameDefinitions.published, true);
    const [rows, [total]] = await Promise.all([
      this.db.select().from(gameDefinitions).where(where).orderBy(asc(gameDefinitions.createdAt), asc(gameDefinitions.id)).limit(window.limit).offset(window.offset),
      this.db.select({ n: count() }).from(gameDefinitions).where(where),
    ]);
    return pageOf(await this.withPackages(rows), total?.n ?? 0, window);
  }

  /** The published catalogue's page, as a visitor reads it: from memory while nothing changed. */
  publicList(window: Window): Promise<CachedAnswer> {
    return this.answers.get(`list:${window.offset}:${window.limit}`, () => this.list(window, false));
  }

  /** A published definition, as a visitor reads it: from memory while nothing changed. */
  publicGet(id: string): Promise<CachedAnswer> {
    return this.answers.get(`definition:${id}`, () => this.get(id));
  }

  /** A definition; an unpublished one only for staff (anyone else gets 404). */
  async get(id: string, includeUnpublished = false): Promise<GameDefinition> {
    const [row] = await this.db.select().from(gameDefinitions).where(eq(gameDefinitions.id, id));
    if (!row || (!row.published && !includeUnpublished)) throw notFound('gameDefinition');
    const [definition] = await this.withPackages([row]);
    return definition!;
  }

  /** The English name of every definition, to keep the seed idempotent. */
  async englishNames(): Promise<Set<string>> {
    const rows = await this.db.select({ name: gameDefinitions.name }).from(gameDefinitions);
    return new Set(rows.map((r) => r.name.en));
  }

  async createDefinition(input: GameDefCreate, actorId?: string): Promise<GameDefinition> {
    checkVersions(input);
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(gameDefinitions)
        .values({
          name: input.name,
          description: input.description,
          image: input.image ?? null,
          version: input.version,
          allowedVersions: input.allowedVersions ?? [],
          settings: input.settings ?? {},
          published: input.published ?? false,
        })
        .returning();
      const created = toDefinition(row!, []);
      if (actorId) await this.audit.record(tx, { actorId, action: 'definition.create', entity: 'definition', entityId: created.id, after: created });
      return created;
    });
  }

  /** The definition's row, locked for a change in `tx`; 404 when there is none. */
  private async locked(tx: Executor, id: string): Promise<GameDefinition> {
    const [row] = await tx.select().from(gameDefinitions).where(eq(gameDefinitions.id, id)).for('update');
    if (!row) throw notFound('gameDefinition');
    return (await this.withPackages([row], tx))[0]!;
  }

  async updateDefinition(id: string, input: GameDefCreate, actorId?: string): Promise<GameDefinition> {
    checkVersions(input);
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, id);
      const [row] = await tx
        .update(gameDefinitions)
        .set({
          name: input.name,
          description: input.description,
          image: input.image ?? null,
          version: input.version,
          allowedVersions: input.allowedVersions ?? [],
          settings: input.settings ?? {},
          // Left out, the published flag stays as it was: an edit must not take a game off the store.
          ...(input.published === undefined ? {} : { published: input.published }),
          updatedAt: sql`now()`,
        })
        .where(eq(gameDefinitions.id, id))
        .returning();
      const after = (await this.withPackages([row!], tx))[0]!;
      if (actorId) await this.audit.record(tx, { actorId, action: 'definition.update', entity: 'definition', entityId: id, before, after });
      return after;
    });
  }

  /**
   * Gives the definition an uploaded image (PNG, JPEG or WebP; 415, 422 otherwise). The files are
   * stored before the definition changes: a failure leaves the definition as it was.
   */
  async setImage(id: string, bytes: Buffer, actorId: string): Promise<GameDefinition> {
    if (!(await this.exists(id))) throw notFound('gameDefinition');
    const image = await this.images.store(bytes);
    return this.db.transaction(async (tx) => {
      const before = await this.locked(tx, id);
      const [row] = await tx
        .update(gameDefinitions)
        .set({ image, updatedAt: sql`now()` })
        .where(eq(gameDefinitions.id, id))
        .returning();
      const after = (await this.withPackages([row!], tx))[0]!;
      await this.audit.record(tx, { actorId, action: 'definition.image', entity: 'definition', entityId: id, before: { image: before.image }, after: { image: after.image } });
      return after;
    });
  }

  /** Deletes a definition and its packages, unless games use it (409, the database refusing it in the same statement). */
  async deleteDefinition(id: string, actorId?: string): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        const before = await this.locked(tx, id);
        await tx.delete(gameDefinitions).where(eq(gameDefinitions.id, id));
        if (actorId) await this.audit.record(tx, { actorId, action: 'definition.delete', entity: 'definition', entityId: id, before });
      });
    } catch (err) {
      if (isStillReferenced(err)) throw conflict('catalogue.definitionInUse');
      throw err;
    }
  }

  async createPackage(input: GamePackageCreate, actorId?: string): Promise<GamePackage> {
    const { definitionId, ...fields } = input;
    return this.db.transaction(async (tx) => {
      // Locked: a definition deleted meanwhile cannot end up with a package.
      const [definition] = await tx.select({ id: gameDefinitions.id }).from(gameDefinitions).where(eq(gameDefinitions.id, definitionId)).for('update');
      if (!definition) throw notFound('gameDefinition');
      const [row] = await tx
        .insert(gamePackages)
        .values({ definitionId, ...fields })
        .returning();
      const created = toPackage(row!);
      if (actorId) await this.audit.record(tx, { actorId, action: 'package.create', entity: 'package', entityId: created.id, after: created });
      return created;
    });
  }

  /** Changes a package; games bought keep what they bought (their RAM, players and price are theirs). */
  async updatePackage(id: string, input: GamePackageUpdate, actorId?: string): Promise<GamePackage> {
    return this.db.transaction(async (tx) => {
      const [old] = await tx.select().from(gamePackages).where(eq(gamePackages.id, id)).for('update');
      if (!old) throw notFound('gamePackage');
      const [row] = await tx
        .update(gamePackages)
        // A description left out stays; null removes it.
        .set({ ...input, updatedAt: sql`now()` })
        .where(eq(gamePackages.id, id))
        .returning();
      const after = toPackage(row!);
      if (actorId) await this.audit.record(tx, { actorId, action: 'package.update', entity: 'package', entityId: id, before: toPackage(old), after });
      return after;
    });
  }

  /** Deletes a package, unless games use it: the database refuses it in the same statement, so no game can slip in between. */
  async deletePackage(id: string, actorId?: string): Promise<void> {
    try {
      await this.db.transaction(async (tx) => {
        const [old] = await tx.delete(gamePackages).where(eq(gamePackages.id, id)).returning();
        if (!old) throw notFound('gamePackage');
        if (actorId) await this.audit.record(tx, { actorId, action: 'package.delete', entity: 'package', entityId: id, before: toPackage(old) });
      });
    } catch (err) {
      if (isStillReferenced(err)) throw conflict('catalogue.packageInUse');
      throw err;
    }
  }

  /** The versions a game of the definition may change to: its own and the ones staff allowed (published or not). */
  async versions(definitionId: string): Promise<string[]> {
    const [row] = await this.db.select({ version: gameDefinitions.version, allowed: gameDefinitions.allowedVersions }).from(gameDefinitions).where(eq(gameDefinitions.id, definitionId));
    if (!row) throw notFound('gameDefinition');
    return [row.version, ...row.allowed];
  }

  /** A package's backup quota (published or not: a game keeps its package). */
  async backupQuota(packageId: string): Promise<{ backupsKept: number; backupsMaxMb: number }> {
    const [row] = await this.db.select({ backupsKept: gamePackages.backupsKept, backupsMaxMb: gamePackages.backupsMaxMb }).from(gamePackages).where(eq(gamePackages.id, packageId));
    if (!row) throw notFound('gamePackage');
    return row;
  }

  /** A published definition and one of its packages, for a purchase; 404 naming what is missing. */
  async offer(definitionId: string, packageId: string): Promise<Offer> {
    const definition = await this.get(definitionId);
    const pkg = definition.packages.find((p) => p.id === packageId);
    if (!pkg) throw notFound('gamePackage');
    return { definition, package: pkg };
  }

  /**
   * A definition (published or not) and its smallest package, read in the caller's transaction:
   * what a match server starts from (competitions/match-servers.ts); null when either is gone.
   */
  async smallestOffer(executor: Executor, definitionId: string) {
    const [definition] = await executor.select().from(gameDefinitions).where(eq(gameDefinitions.id, definitionId));
    const [pkg] = await executor.select().from(gamePackages).where(eq(gamePackages.definitionId, definitionId)).orderBy(asc(gamePackages.ramMb)).limit(1);
    return definition && pkg ? { definition, package: pkg } : null;
  }

  /**
   * Adds a review's rating to the definition's average (`change` 1), or takes it out (-1, a review
   * hidden by staff), in the review's transaction.
   */
  async recordRating(executor: Executor, definitionId: string, rating: number, change: 1 | -1 = 1): Promise<void> {
    await executor
      .update(gameDefinitions)
      .set({ ratingSum: sql`${gameDefinitions.ratingSum} + ${change * rating}`, ratingCount: sql`${gameDefinitions.ratingCount} + ${change}` })
      .where(eq(gameDefinitions.id, definitionId));
  }

  /** Names of definitions and packages (published or not), for the back office's lists. */
  async labels(definitionIds: string[], packageIds: string[] = []): Promise<{ definitions: Map<string, LocalizedText>; packages: Map<string, LocalizedText> }> {
    const [definitions, packages] = await Promise.all([
      definitionIds.length
        ? this.db
            .select({ id: gameDefinitions.id, name: gameDefinitions.name })
            .from(gameDefinitions)
            .where(inArray(gameDefinitions.id, [...new Set(definitionIds)]))
        : [],
      packageIds.length
        ? this.db
            .select({ id: gamePackages.id, name: gamePackages.name })
            .from(gamePackages)
            .where(inArray(gamePackages.id, [...new Set(packageIds)]))
        : [],
    ]);
    return { definitions: new Map(definitions.map((d) => [d.id, d.name])), packages: new Map(packages.map((p) => [p.id, p.name])) };
  }

  /** An uploaded image's bytes (see DefinitionImages), or null. */
  readImage(file: string): Promise<Buffer | null> {
    return this.images.read(file);
  }

  /** True when the definition exists (published or not). */
  async exists(definitionId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: gameDefinitions.id }).from(gameDefinitions).where(eq(gameDefinitions.id, definitionId));
    return !!row;
  }
}
