import type { Game } from '../../../../contract/games.ts';
import { allows, type GameAccessLevel } from '../../../../contract/sharing.ts';

/** What the caller is to the game: the API says it on the single-game read; a game without it is theirs. */
export const levelOf = (game: Pick<Game, 'access'>): GameAccessLevel => game.access ?? 'OWNER';

/** Whether the caller may do, on this game, what `needed` may (the page hides what they may not). */
export const may = (game: Pick<Game, 'access'>, needed: GameAccessLevel): boolean => allows(levelOf(game), needed);
