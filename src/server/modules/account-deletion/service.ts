import { and, asc, eq, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { accountDeletions } from '../../db/schema/account-deletion.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { unauthorized } from '../../lib/problems.ts';
import { RoundLoop } from '../../lib/round-loop.ts';
import type { AccountDelete, AccountDeleted } from '../../../contract/account.ts';
import type { CreditsService } from '../money/credits/service.ts';
import type { UsersService } from '../users/service.ts';

/** A round every minute (or as often as the lease when shorter) finishes what a call on another replica, or a process killed half-way, left. */
const ROUND_MS = 60_000;

/**
 * What the sign-in side does for a deletion, when the platform runs its own provider
 * (identity/plugin.ts gives it): with another issuer (Keycloak) there is nothing of ours to check
 * or end, and the person deletes that account in its own console.
 */
export interface IdentitySide {
  /** Throws the field errors of a wrong password or code (400), as the account's other changes do. */
  confirm(subject: string, body: AccountDelete): Promise<void>;
  /** Inside the deletion's transaction: the sign-in account goes (its links with it), and every session, grant and refresh token of it. */
  forget(tx: Tx, subject: string): Promise<void>;
}

interface Deps {
  users: UsersService;
  credits: CreditsService;
  personalData: PersonalData;
}

interface Options {
  /** How long a replica holds a deletion it runs before another may take it over (ACCOUNT_DELETION_LEASE_SECONDS). */
  leaseMs: number;
  clock: () => Date;
  log: { error(obj: object, msg: string): void };
}

/**
 * Deleting an account (RGPD article 17; docs/architecture.md, "Deleting an account"). The ask is
 * one transaction: the user's row says deleted and gives up its subject (tokens and sign-in are
 * refused from the commit; signing up again makes a new row), the built-in provider's account and
 * sessions go, the balance is forfeited with a ledger line, and the deletion is written down. The
 * rest is done by rounds that every module's erasure takes part in (lib/personal-data.ts): leased
 * with FOR UPDATE SKIP LOCKED, run again from the start after a failure or a killed process, so it
 * is finished, never left half done, and nothing is done twice.
 */
export class AccountDeletion {
  private loop: RoundLoop | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private identity: IdentitySide | undefined;
  /** Tests fail a round half-way here: it runs before each module's erasure. */
  beforeErasure: ((name: string) => void | Promise<void>) | undefined;

  private readonly db: Db;
  private readonly deps: Deps;
  private readonly options: Options;

  constructor(db: Db, deps: Deps, options: Options) {
    this.db = db;
    this.deps = deps;
    this.options = options;
  }

  /** Called by the built-in provider's plugin, which registers before the modules. */
  useIdentity(identity: IdentitySide): void {
    this.identity = identity;
  }

  /** Deletes the caller's account: answers the credits forfeited; the rest is finished in the background. */
  async request(userId: string, body: AccountDelete): Promise<AccountDeleted> {
    const { users, credits } = this.deps;
    const row = await users.get(userId);
    if (!row || row.deletedAt) throw unauthorized('auth.accountDeleted');
    await this.identity?.confirm(row.subject, body);
    const creditsForfeited = await this.db.transaction(async (tx) => {
      const before = await users.markDeleted(tx, userId);
      // Two asks at once (two tabs, two keys): the second finds the row deleted already.
      if (!before) throw unauthorized('auth.accountDeleted');
      await this.identity?.forget(tx, before.subject);
      const balance = await credits.balance(userId, tx);
      if (balance > 0) await credits.apply(tx, { userId, amount: -balance, kind: 'FORFEIT', reason: { key: 'accountDeleted', params: { count: balance } } });
      await tx.insert(accountDeletions).values({ userId, requestedAt: this.options.clock(), creditsForfeited: balance });
      return balance;
    });
    this.soon();
    return { creditsForfeited };
  }

  start(): void {
    this.loop ??= new RoundLoop(
      () => this.tick(),
      () => Math.min(ROUND_MS, this.options.leaseMs),
      (err) => this.options.log.error({ err }, 'account deletion round failed'),
    );
    this.loop.start();
    // What a process killed half-way left, at once rather than a round later.
    this.soon();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
    this.loop = undefined;
    await this.running;
  }

  /** A round now, after the one under way, when the rounds run (tests run theirs with `tick`). */
  private soon(): void {
    if (!this.loop) return;
    this.running = this.running.then(() => this.tick()).catch((err: unknown) => this.options.log.error({ err }, 'account deletion failed'));
  }

  /** Finishes every deletion waiting for a runner; answers how many it finished. A failed one waits for the next round. */
  async tick(): Promise<number> {
    let finished = 0;
    const failed: string[] = [];
    for (let row = await this.claim(failed); row; row = await this.claim(failed)) {
      try {
        await this.finish(row.userId);
        finished++;
      } catch (err) {
        failed.push(row.userId);
        this.options.log.error({ err, userId: row.userId }, 'account deletion stopped half-way: the next round resumes it');
        await this.db
          .update(accountDeletions)
          .set({ leasedUntil: null, lastError: err instanceof Error ? err.message.slice(0, 500) : String(err).slice(0, 500) })
          .where(eq(accountDeletions.userId, row.userId));
      }
    }
    return finished;
  }

  private async claim(skip: string[]) {
    const now = this.options.clock();
    return this.db.transaction(async (tx) => {
      const waiting = and(isNull(accountDeletions.finishedAt), or(isNull(accountDeletions.leasedUntil), lt(accountDeletions.leasedUntil, now)));
      const [row] = await tx
        .select()
        .from(accountDeletions)
        .where(skip.length ? and(waiting, notInArray(accountDeletions.userId, skip)) : waiting)
        .orderBy(asc(accountDeletions.requestedAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return undefined;
      await tx
        .update(accountDeletions)
        .set({ leasedUntil: new Date(now.getTime() + this.options.leaseMs), attempts: sql`${accountDeletions.attempts} + 1` })
        .where(eq(accountDeletions.userId, row.userId));
      return row;
    });
  }

  /** Every module's erasure, then the deletion marked finished: run again from the start, each erasure skips what is done. */
  private async finish(userId: string): Promise<void> {
    await this.deps.personalData.erase(userId, this.beforeErasure);
    await this.db.update(accountDeletions).set({ finishedAt: this.options.clock(), leasedUntil: null, lastError: null }).where(eq(accountDeletions.userId, userId));
  }
}
