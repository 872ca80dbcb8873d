import type { Db } from '../../db/client.ts';
import type { AuditService } from '../audit/service.ts';
import type { BackupsService } from './service.ts';
import type { Backup } from '../../../contract/backups.ts';
import type { Locale } from '../../../contract/messages.ts';

/**
 * Staff's hand on any player's backups (docs/architecture.md, "Backups"): a restore for the
 * player, kept in the audit log with the staff member's reason.
 */
export class StaffBackupsService {
  private readonly db: Db;
  private readonly backups: BackupsService;
  private readonly audit: AuditService;

  constructor(db: Db, deps: { backups: BackupsService; audit: AuditService }) {
    this.db = db;
    this.backups = deps.backups;
    this.audit = deps.audit;
  }

  /**
   * Restores as the owner's restore does (202, 404, 409 alike). The restore runs on after the
   * answer, so there is no transaction to record it in: the entry says staff asked for it, written
   * only once the restore was accepted, never for a refusal.
   */
  async restore(actorId: string, gameId: string, backupId: string, reason: string, locale: Locale): Promise<Backup> {
    const backup = await this.backups.restore(gameId, backupId, locale);
    await this.audit.record(this.db, { actorId, action: 'backup.restore', entity: 'game', entityId: gameId, reason, after: { backupId: backup.id, backupCreatedAt: backup.createdAt } });
    return backup;
  }
}
