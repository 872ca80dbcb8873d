import type { Executor, Tx } from './db/client.ts';
import type { Player } from '../contract/social.ts';
import type { GameAccessLevel } from '../contract/sharing.ts';
import type { GameRow } from './modules/games/runtime.ts';

/**
 * Whose access to which games may have ended: `userIds` (everyone's when omitted) on `gameIds`
 * (every game when omitted). What reads it checks each one's level again.
 */
export interface AccessScope {
  userIds?: string[];
  gameIds?: string[];
}

/** Whether a user still holds `needed` on a game, read in the transaction that may have ended it. */
export type LevelCheck = (userId: string, gameId: string, needed: GameAccessLevel) => Promise<boolean>;

/**
 * What a module tells the others it did (docs/architecture.md, "Events"), one payload type per name.
 * The module that acts emits; a module that reacts subscribes in its constructor, so reading a module
 * shows what it sets off and what it answers to.
 *
 * An event carrying `tx` or `executor` is emitted inside the writing transaction: its handlers' writes
 * commit or roll back with the act. The others are emitted once the act is committed.
 */
export interface DomainEvents {
  /** Two users stopped being friends: one removed the other, or blocked them. */
  'friends.unfriended': { tx: Tx; a: string; b: string };
  /** `ownerId` blocked `blocked`. */
  'blocklist.blocked': { tx: Tx; ownerId: string; blocked: Player };
  /** Users joined or left a friend group, or it was deleted (all its members left). Committed. */
  'friendGroups.membershipChanged': { groupId: string; joined: string[]; left: string[] };
  /** A game was bought. Committed. */
  'games.created': { gameId: string };
  /**
   * A game was deleted (its owner, or staff): in the write that hides it, what other modules keep for
   * it goes (shares, schedules, the renewal waiting, the nightly backup); the backup rounds finish the rest.
   */
  'games.deleted': { tx: Tx; gameId: string; ownerId: string };
  /** A game's deletion is committed: the backup rounds may finish it now rather than at their next round. Committed. */
  'games.deletionCommitted': { gameId: string };
  /** Someone asked a game for a power action (start, stop, restart…), or changed what its server runs. Committed. */
  'games.actionAsked': { gameId: string };
  /** A player's login woke a sleeping game (its start is written): its server is launched at once, a login waiting on it. Committed. */
  'games.wakeAsked': { gameId: string };
  /** The reconciler wrote a new status for a game, `from` the one before. */
  'games.statusChanged': { game: GameRow; from: GameRow['status']; executor: Executor };
  /** Some people may have lost a game (a grant revoked or lowered, a group left, an unfriending, a block); `levelOf` tells what each still holds. */
  'sharing.accessEnded': { scope: AccessScope; executor: Executor; levelOf: LevelCheck };
  /** Two queued players were paired: a ranked match PENDING, its server to start from the mode's game definition (when it has one). */
  'competitions.matched': { tx: Tx; matchId: string; modeId: string; definitionId: string | null; players: [string, string]; names: [string, string] };
  /** A ranked match ended once: FINISHED with a result (the ratings changed in `tx`), VOID or CANCELLED. */
  'competitions.matchEnded': { tx: Tx; matchId: string; status: 'FINISHED' | 'VOID' | 'CANCELLED' };
  /** As `sharing.accessEnded`, heard on every replica once committed: what those people hold open here closes. `levelOf` is null without access. */
  'sharing.accessLost': { scope: AccessScope; levelOf: (userId: string, gameId: string) => Promise<unknown> };
}

type Handler<E extends keyof DomainEvents> = (payload: DomainEvents[E]) => void | Promise<void>;

/**
 * One bus per app. `emit` runs the event's handlers one after the other, in the order they
 * subscribed, and waits for each: a handler's failure is the act's failure (inside a transaction,
 * it rolls the act back).
 */
export class EventBus {
  private readonly handlers = new Map<keyof DomainEvents, Array<Handler<never>>>();

  on<E extends keyof DomainEvents>(event: E, handler: Handler<E>): void {
    const list = this.handlers.get(event) ?? [];
    list.push(handler as Handler<never>);
    this.handlers.set(event, list);
  }

  async emit<E extends keyof DomainEvents>(event: E, payload: DomainEvents[E]): Promise<void> {
    for (const handler of (this.handlers.get(event) ?? []) as Array<Handler<E>>) await handler(payload);
  }
}
