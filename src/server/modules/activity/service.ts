import { activityDetailKeys, type GameActivityEntry } from '../../../contract/activity.ts';
import { gameAccessLevels, type GameAccessLevel } from '../../../contract/sharing.ts';
import type { Window } from '../../lib/paging.ts';
import type { AuditService } from '../audit/service.ts';

/** Longest text an activity line repeats (a console command is at most 256 characters). */
const DETAIL_MAX = 256;

type Snapshot = Record<string, unknown> | null;
const asSnapshot = (value: unknown): Snapshot => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);

/**
 * A game's activity for the people who act on it: the audit log's entries about the game, each
 * with who did it and as what. Staff entries always carry a reason (a stop, days offered, a
 * restore); they are shown as the platform's, without the staff member's name or their reason,
 * which are for the back office.
 */
export class ActivityService {
  private readonly audit: AuditService;

  constructor(audit: AuditService) {
    this.audit = audit;
  }

  async ofGame(game: { gameId: string; ownerId: string }, window: Window) {
    const page = await this.audit.list({ entity: 'game', entityId: game.gameId }, window);
    return {
      ...page,
      data: page.data.map((entry): GameActivityEntry => {
        const after = asSnapshot(entry.after);
        const staff = entry.reason !== null;
        const as = after?.as;
        const by: GameActivityEntry['by'] = staff ? 'STAFF' : entry.actorId === game.ownerId ? 'OWNER' : gameAccessLevels.includes(as as GameAccessLevel) ? (as as GameAccessLevel) : 'SHARED';
        return { id: entry.id, at: entry.createdAt, action: entry.action, actorName: staff ? '' : entry.actorName, by, detail: staff ? {} : detailOf({ ...asSnapshot(entry.before), ...after }) };
      }),
    };
  }
}

/** The values worth saying of an action, from what was recorded with it. */
function detailOf(recorded: Record<string, unknown>): GameActivityEntry['detail'] {
  const detail: GameActivityEntry['detail'] = {};
  for (const key of activityDetailKeys) {
    const value = recorded[key];
    if (typeof value === 'string') detail[key] = value.slice(0, DETAIL_MAX);
    else if (typeof value === 'number' || typeof value === 'boolean') detail[key] = value;
  }
  return detail;
}
