import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { games } from '../../db/schema/games.ts';
import { badRequest, conflict, invalidField, notFound, type ErrorKey } from '../../lib/problems.ts';
import type { CatalogueService } from '../catalogue/service.ts';
import type { NotificationsService } from '../notifications/service.ts';
import { minecraftVersions } from '../../../contract/games.ts';
import {
  liveSettingKeys,
  settingKeys,
  type GameSettingsResult,
  type GameSettingsUpdate,
  type GameSettingsView,
  type GameVersionResult,
  type GameVersionUpdate,
  type SettingKey,
  type SettingValues,
} from '../../../contract/settings.ts';
import { settingDefaults } from '../../../contract/values.ts';
import type { GamesService } from '../games/service.ts';
import { specOf, type GameRow, type GameRuntime } from '../games/runtime.ts';

/** The side of a server icon, as Minecraft shows it in the server list. */
const ICON_PX = 64;
/** Beyond this many pixels (4000 × 4000), decoding an icon costs more memory than it is worth. */
const MAX_ICON_PIXELS = 16_000_000;

/** The RCON command that applies a live setting on a running server. */
const liveCommand: Partial<Record<SettingKey, (values: SettingValues) => string>> = {
  motd: (v) => `motd ${v.motd}`,
  difficulty: (v) => `difficulty ${v.difficulty}`,
  // With force-gamemode (our servers' own, and set for jars): every player online too.
  gameMode: (v) => `defaultgamemode ${v.gameMode}`,
  whitelistEnabled: (v) => `whitelist ${v.whitelistEnabled ? 'on' : 'off'}`,
};

const versionIndex = (v: string) => (minecraftVersions as readonly string[]).indexOf(v);

/**
 * A game's settings after its creation and its version changes (docs/architecture.md, "Settings and
 * versions"). Everything is stored on the game's row, which the driver's spec is made from at each
 * start; what a running server takes at once is also sent over RCON. 404 for another's game.
 */
export class GameSettingsService {
  private readonly db: Db;
  private readonly runtime: GameRuntime;
  private readonly games: GamesService;
  private readonly catalogue: CatalogueService;
  private readonly notifications: NotificationsService;
  /** The automatic backup taken before a version change: why it failed, or null (the backups module's `backUpBefore`). */
  private readonly backUpBefore: (gameId: string) => Promise<ErrorKey | null>;

  constructor(
    db: Db,
    deps: {
      runtime: GameRuntime;
      games: GamesService;
      catalogue: CatalogueService;
      notifications: NotificationsService;
      backUpBefore: (gameId: string) => Promise<ErrorKey | null>;
    },
  ) {
    this.db = db;
    this.runtime = deps.runtime;
    this.games = deps.games;
    this.catalogue = deps.catalogue;
    this.notifications = deps.notifications;
    this.backUpBefore = deps.backUpBefore;
  }

  private async row(id: string): Promise<GameRow> {
    const [row] = await this.db.select().from(games).where(eq(games.id, id));
    if (!row) throw notFound('game');
    return row;
  }

  async get(id: string): Promise<GameSettingsView> {
    return this.view(await this.row(id));
  }

  private async view(row: GameRow): Promise<GameSettingsView> {
    const offered = new Set([...(await this.catalogue.versions(row.definitionId)), row.version]);
    return {
      values: valuesOf(row),
      icon: row.settings.icon ? `data:image/png;base64,${row.settings.icon}` : null,
      packageMaxPlayers: row.maxPlayers,
      live: [...liveSettingKeys],
      version: row.version,
      versions: minecraftVersions.filter((v) => offered.has(v)),
      running: (row.desiredState === 'running' && row.status !== 'SLEEPING') || row.status === 'RUNNING',
    };
  }

  /**
   * Saves the settings given; a running server gets the live ones over RCON at once, and is
   * restarted when `restart` asks for it so the others apply. A value out of bounds answers 400
   * and nothing changes.
   */
  async update(id: string, input: GameSettingsUpdate): Promise<GameSettingsResult> {
    const { restart, ...given } = input;
    const before = await this.row(id);
    if (given.maxPlayers !== undefined && given.maxPlayers > before.maxPlayers) throw invalidField('maxPlayers', 'settings.maxPlayersOverPackage', { max: before.maxPlayers });
    const old = valuesOf(before);
    const next: SettingValues = { ...old, ...given };
    const changed = settingKeys.filter((k) => next[k] !== old[k]);
    // Only what changed is written: a setting never touched keeps the server's own default.
    const stored = Object.fromEntries(changed.filter((k) => k !== 'whitelistEnabled').map((k) => [k, next[k]]));
    const [row] = await this.db
      .update(games)
      .set({ settings: { ...before.settings, ...stored }, whitelistEnabled: next.whitelistEnabled, updatedAt: this.runtime.clock() })
      .where(eq(games.id, id))
      .returning();
    if (!row) throw notFound('game');
    if (changed.length) await this.notifications.changed(row.ownerId, { resource: 'games', ids: [id], type: 'updated' });
    return this.apply(row, changed, restart ?? false);
  }

  /**
   * The server icon: any image sharp reads, squared, made 64×64 and re-encoded as PNG, so what the
   * server sends is ours, never the upload's bytes. null removes it. It applies at the next start.
   */
  async setIcon(id: string, image: string | null, restart: boolean): Promise<GameSettingsResult> {
    const before = await this.row(id);
    let icon: string | undefined;
    if (image !== null) {
      const bytes = Buffer.from(image.replace(/^data:[\w/+.-]+;base64,/, ''), 'base64');
      // The image library is loaded at the first icon, not at every start of the API.
      const { default: sharp } = await import('sharp');
      try {
        const png = await sharp(bytes, { limitInputPixels: MAX_ICON_PIXELS }).resize(ICON_PX, ICON_PX, { fit: 'cover' }).png().toBuffer();
        icon = png.toString('base64');
      } catch {
        throw badRequest('request.invalidField', {}, [{ field: 'image', key: 'settings.iconUnreadable' }]);
      }
    }
    const { icon: _dropped, ...rest } = before.settings;
    const [row] = await this.db
      .update(games)
      .set({ settings: icon ? { ...rest, icon } : rest, updatedAt: this.runtime.clock() })
      .where(eq(games.id, id))
      .returning();
    if (!row) throw notFound('game');
    await this.notifications.changed(row.ownerId, { resource: 'games', ids: [id], type: 'updated' });
    return this.apply(row, [], restart, true);
  }

  /** Sends the live changes to a running server and restarts it when asked; says what applies when. */
  private async apply(row: GameRow, changed: SettingKey[], restart: boolean, iconChanged = false): Promise<GameSettingsResult> {
    const applied: SettingKey[] = [];
    if (row.status === 'RUNNING') {
      const spec = await specOf(this.db, row);
      const values = valuesOf(row);
      for (const key of changed) {
        const command = liveCommand[key];
        if (key === 'sleepAfterMinutes') continue;
        if (!command) continue;
        try {
          await this.runtime.driver.rcon(spec, command(values));
          applied.push(key);
        } catch (err) {
          this.runtime.log.warn({ err, gameId: row.id, key }, 'live setting not applied; the next start applies it');
        }
      }
    }
    // The platform's own setting: the reconciler reads it from the row at its next look, running or not.
    if (changed.includes('sleepAfterMinutes')) applied.push('sleepAfterMinutes');
    const pendingRestart = changed.filter((k) => !applied.includes(k));
    let restarting = false;
    if (restart && (row.status === 'RUNNING' || row.status === 'CRASHED') && (pendingRestart.length > 0 || iconChanged)) {
      await this.games.act(row.id, 'restart');
      restarting = true;
    }
    return { settings: await this.view(restarting ? await this.row(row.id) : row), applied, pendingRestart, restarting };
  }

  /**
   * Moves the game to another version its definition allows: an automatic backup of the world
   * first, which must succeed; a downgrade only with `confirmDowngrade` (a world saved by a newer
   * version may not open in an older one). A running server is restarted on the new version.
   */
  async changeVersion(id: string, input: GameVersionUpdate): Promise<GameVersionResult> {
    const row = await this.row(id);
    const allowed = await this.view(row);
    if (!allowed.versions.includes(input.version)) throw invalidField('version', 'settings.versionNotAllowed', { versions: allowed.versions.join(', ') });
    if (input.version === row.version) return { version: row.version, restarting: false };
    if (row.status === 'STARTING' || row.status === 'STOPPING') throw conflict('settings.versionWhileBusy', { status: row.status });
    if (versionIndex(input.version) < versionIndex(row.version) && input.confirmDowngrade !== true) throw conflict('settings.downgradeUnconfirmed', { from: row.version, to: input.version });
    const failed = await this.backUpBefore(id);
    // A world never started has nothing to lose; any other failure stops the change.
    if (failed && failed !== 'backups.noWorld') throw conflict('settings.versionBackupFailed');
    const [updated] = await this.db
      .update(games)
      .set({ version: input.version, updatedAt: this.runtime.clock() })
      .where(and(eq(games.id, id), eq(games.version, row.version)))
      .returning();
    if (!updated) throw conflict('settings.versionChanged');
    await this.notifications.changed(updated.ownerId, { resource: 'games', ids: [id], type: 'updated' });
    const restarting = updated.status === 'RUNNING' || updated.status === 'CRASHED';
    // The reconciler stops it, then provisions and starts it again from the row: on the new version.
    if (restarting) await this.games.act(id, 'restart');
    return { version: input.version, restarting };
  }
}

function valuesOf(row: GameRow): SettingValues {
  const s = row.settings;
  return {
    motd: s.motd,
    gameMode: s.gameMode,
    difficulty: s.difficulty,
    pvp: s.pvp ?? settingDefaults.pvp,
    maxPlayers: s.maxPlayers ?? row.maxPlayers,
    viewDistance: s.viewDistance ?? settingDefaults.viewDistance,
    spawnProtection: s.spawnProtection ?? settingDefaults.spawnProtection,
    whitelistEnabled: row.whitelistEnabled,
    allowFlight: s.allowFlight ?? settingDefaults.allowFlight,
    sleepAfterMinutes: s.sleepAfterMinutes ?? settingDefaults.sleepAfterMinutes,
  };
}
