import type { GameAccessLevel } from '../../../contract/sharing.ts';

/**
 * What a caller is to a game, once the sharing guard checked it (docs/architecture.md,
 * "Sharing"): the game, who owns it, and the caller's level. The services of a game's calls take
 * this and trust it: none reads the owner again to check who may act.
 */
export interface GameAccessCheck {
  gameId: string;
  ownerId: string;
  level: GameAccessLevel;
}
