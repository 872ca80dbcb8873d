import { and, eq, isNull, like, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { games } from '../../db/schema/games.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { HttpProblem, invalidField, notFound, type ErrorKey } from '../../lib/problems.ts';
import { ADDRESS_NAME_PATTERN, reservedAddressNames } from '../../../contract/address-names.ts';
import type { Game } from '../../../contract/games.ts';
import type { NotificationsService } from '../notifications/service.ts';
import type { AuditService } from '../audit/service.ts';
import type { GameRow } from './runtime.ts';

/** An owner may change a game's address name once in this time. */
const RENAME_INTERVAL_MS = 24 * 60 * 60 * 1000;
const pattern = new RegExp(ADDRESS_NAME_PATTERN);
const reserved = new Set<string>(reservedAddressNames);

/** Why a name may not be a game's address name, or null when its form is right (it may still be taken). */
function addressNameFault(name: string): ErrorKey | null {
  if (name.length < 3 || name.length > 32 || !pattern.test(name) || name.includes('--')) return 'games.addressNameInvalid';
  if (reserved.has(name)) return 'games.addressNameReserved';
  return null;
}

/** Letters of `text` as a DNS label's: accents dropped, anything else a hyphen, at most `max` long. */
function slug(text: string, max: number): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, max)
    .replace(/^-+|-+$/g, '');
}

/** The address name's part of a game's view: the name, when it was changed, when it may be again. */
export function addressNameView(row: GameRow): Pick<Game, 'addressName' | 'addressNameChangedAt' | 'addressNameNextChange'> {
  const changed = row.addressNameChangedAt;
  const next = changed ? new Date(changed.getTime() + RENAME_INTERVAL_MS) : null;
  return { addressName: row.addressName, addressNameChangedAt: changed?.toISOString() ?? null, addressNameNextChange: next?.toISOString() ?? null };
}

const taken = () => new HttpProblem(409, 'games.addressNameTaken', {}, { errors: [{ field: 'addressName', key: 'games.addressNameTaken' }] });

/**
 * Games' address names: the one the gateway routes by (docs/architecture.md, "The game gateway").
 * Chosen when a game is bought (or made from the owner's and the game's names), changed by its
 * owner at most once a day; unique among the games not deleted, which a unique index holds when
 * two buyers pick the same name at once.
 */
export class AddressNames {
  private readonly db: Db;
  private readonly notifications: NotificationsService;
  private readonly audit: AuditService;
  private readonly clock: () => Date;

  constructor(db: Db, deps: { notifications: NotificationsService; audit: AuditService; clock: () => Date }) {
    this.db = db;
    this.notifications = deps.notifications;
    this.audit = deps.audit;
    this.clock = deps.clock;
  }

  private async isTaken(name: string, exceptGameId?: string): Promise<boolean> {
    const others = exceptGameId ? ne(games.id, exceptGameId) : undefined;
    const [row] = await this.db
      .select({ id: games.id })
      .from(games)
      .where(and(eq(games.addressName, name), isNull(games.deletedAt), others))
      .limit(1);
    return row !== undefined;
  }

  /** A free name from the owner's and the game's names, made unique with a number. */
  async suggest(ownerName: string, gameName: string): Promise<string> {
    const owner = slug(ownerName, 12);
    let base = slug([owner, slug(gameName, 28)].filter(Boolean).join('-'), 28);
    if (base.length < 3) base = owner.length >= 3 ? owner : 'serveur';
    if (reserved.has(base) || addressNameFault(base)) base = `${base}-mc`.replace(/^-+/, '');
    const used = new Set(
      (
        await this.db
          .select({ name: games.addressName })
          .from(games)
          .where(and(isNull(games.deletedAt), or(eq(games.addressName, base), like(games.addressName, `${base}-%`))))
      ).map((r) => r.name),
    );
    if (!used.has(base)) return base;
    for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  /** Why `name` cannot be taken now (its form, reserved, another game's), or null. */
  async refusal(name: string, exceptGameId?: string): Promise<ErrorKey | null> {
    return addressNameFault(name) ?? ((await this.isTaken(name, exceptGameId)) ? 'games.addressNameTaken' : null);
  }

  /** The name a game being bought gets: the one asked for, checked (400, 409), or a suggestion. */
  async forPurchase(ownerName: string, gameName: string, asked: string | undefined): Promise<string> {
    if (asked === undefined) return this.suggest(ownerName, gameName);
    const fault = await this.refusal(asked);
    if (fault === 'games.addressNameTaken') throw taken();
    if (fault) throw invalidField('addressName', fault);
    return asked;
  }

  /**
   * The owner's new name for a game: 400 bad form or reserved, 409 taken or changed within the day
   * (with when it may be). The name it has already is no change: answered as it stands, whenever
   * asked, neither counted as the day's change nor audited. A change is audited in its transaction.
   */
  async rename(gameId: string, owner: { id: string; as: string }, name: string): Promise<Pick<Game, 'addressName' | 'addressNameChangedAt' | 'addressNameNextChange'>> {
    const fault = addressNameFault(name);
    if (fault) throw invalidField('addressName', fault);
    const now = this.clock();
    const row = await this.db
      .transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(games)
          .where(and(eq(games.id, gameId), isNull(games.deletedAt)))
          .for('update');
        if (!current) throw notFound('game');
        if (current.addressName === name) return current;
        const view = addressNameView(current);
        if (view.addressNameNextChange && new Date(view.addressNameNextChange) > now) {
          throw new HttpProblem(409, 'games.addressNameChangedRecently', { next: view.addressNameNextChange });
        }
        const [renamed] = await tx.update(games).set({ addressName: name, addressNameChangedAt: now, updatedAt: now }).where(eq(games.id, gameId)).returning();
        await this.notifications.changed(owner.id, { resource: 'games', ids: [gameId], type: 'updated' }, tx);
        await this.audit.record(tx, {
          actorId: owner.id,
          action: 'game.rename',
          entity: 'game',
          entityId: gameId,
          before: { addressName: current.addressName },
          after: { as: owner.as, addressName: name },
        });
        return renamed!;
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw taken();
        throw err;
      });
    return addressNameView(row);
  }
}
