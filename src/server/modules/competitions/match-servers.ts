import { eq } from 'drizzle-orm';
import { rankedMatches } from '../../db/schema/competitions.ts';
import type { EventBus } from '../../events.ts';
import type { PlatformGames } from '../games/platform-games.ts';

/**
 * The match servers (docs/architecture.md, "Competitions", match servers): when a match is made,
 * in its transaction, a platform game from the mode's definition, PvP on, whitelisted to the two
 * players' Minecraft names, wanted running at once, linked from the match. A mode without a
 * definition gets none: the supervision voids its match (`serverFailed`).
 */
export function makeMatchServers(events: EventBus, platformGames: PlatformGames): void {
  events.on('competitions.matched', async ({ tx, matchId, definitionId, names }) => {
    if (!definitionId) return;
    const gameId = await platformGames.create(tx, { definitionId, name: `match-${matchId.slice(0, 8)}`, whitelist: names });
    if (gameId) await tx.update(rankedMatches).set({ gameId }).where(eq(rankedMatches.id, matchId));
  });
}
