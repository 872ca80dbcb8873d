import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { buyGame, catalogue, runGame } from '../fixtures/games.ts';

const settingsOf = async (t: TestApp, gameId: string, user = 'alice') => t.as(user, { method: 'GET', url: `/v1/game/${gameId}/settings` });
const put = (t: TestApp, gameId: string, payload: object, user = 'alice') => t.as(user, { method: 'PUT', url: `/v1/game/${gameId}/settings`, payload });
const putVersion = (t: TestApp, gameId: string, payload: object, user = 'alice') => t.as(user, { method: 'PUT', url: `/v1/game/${gameId}/version`, payload });

/** A game whose definition allows 1.20.4 and 1.21.1 besides its own 1.21.4. */
async function gameWithVersions(t: TestApp) {
  const { gameId, definitionId } = await buyGame(t);
  const def = (await t.as('boss', { method: 'GET', url: `/v1/definition/game/${definitionId}`, roles: ['staff'] })).json();
  const { name, description, version, settings, published } = def;
  const res = await t.as('boss', {
    method: 'PUT',
    url: `/v1/definition/game/${definitionId}`,
    roles: ['staff'],
    payload: { name, description, version, settings, published, allowedVersions: ['1.21.1', '1.20.4'] },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().allowedVersions).toEqual(['1.21.1', '1.20.4']);
  return gameId;
}

describe('game settings', () => {
  const t = useTestApp();

  it('reads the settings with their defaults, the live ones and the versions offered', async () => {
    const gameId = await gameWithVersions(t.current);
    const res = await settingsOf(t.current, gameId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      values: {
        motd: 'My world',
        gameMode: 'survival',
        difficulty: 'hard',
        pvp: true,
        maxPlayers: 10,
        viewDistance: 6,
        spawnProtection: 16,
        whitelistEnabled: false,
        allowFlight: false,
        sleepAfterMinutes: 10,
      },
      icon: null,
      packageMaxPlayers: 10,
      live: ['motd', 'gameMode', 'difficulty', 'whitelistEnabled', 'sleepAfterMinutes'],
      version: '1.21.4',
      versions: ['1.20.4', '1.21.1', '1.21.4'],
      running: false,
    });
    // The server is given the view distance the page shows, not its own default.
    await runGame(t.current, gameId);
    expect(t.current.driver.servers.get(gameId)!.spec.viewDistance).toBe(6);
  });

  it('applies the live settings to a running server over RCON and keeps the others for a restart, which it does when asked', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const res = await put(t.current, gameId, { motd: 'Welcome home', difficulty: 'easy', gameMode: 'creative', pvp: false, maxPlayers: 8, whitelistEnabled: true });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.applied.sort()).toEqual(['difficulty', 'gameMode', 'motd', 'whitelistEnabled']);
    expect(body.pendingRestart.sort()).toEqual(['maxPlayers', 'pvp']);
    expect(body.restarting).toBe(false);
    expect(body.settings.values).toMatchObject({ motd: 'Welcome home', difficulty: 'easy', gameMode: 'creative', pvp: false, maxPlayers: 8, whitelistEnabled: true });
    // The game mode goes to every player online, as vanilla's `defaultgamemode` with force-gamemode.
    expect(t.current.driver.commands(gameId)).toEqual(expect.arrayContaining(['motd Welcome home', 'difficulty easy', 'defaultgamemode creative', 'whitelist on']));
    // The game's own view and the whitelist switch say the same.
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/minecraft/whitelist/status` })).json()).toEqual({ enabled: true });

    // Asked to restart: the server starts again with what needs a restart.
    const again = await put(t.current, gameId, { viewDistance: 8, restart: true });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ applied: [], pendingRestart: ['viewDistance'], restarting: true });
    await t.current.app.services.reconciler.tick();
    await t.current.app.services.reconciler.tick();
    await t.current.app.services.reconciler.tick();
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json().status).toBe('RUNNING');
    expect(t.current.driver.servers.get(gameId)!.spec).toMatchObject({
      motd: 'Welcome home',
      gameMode: 'creative',
      difficulty: 'easy',
      pvp: false,
      maxPlayers: 8,
      viewDistance: 8,
      whitelistEnabled: true,
    });
  });

  it('saves everything for the next start when the server is stopped', async () => {
    const { gameId } = await buyGame(t.current);
    const res = await put(t.current, gameId, { motd: 'Later', spawnProtection: 0, allowFlight: true, restart: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ applied: [], restarting: false });
    expect(res.json().pendingRestart.sort()).toEqual(['allowFlight', 'motd', 'spawnProtection']);
    expect(t.current.driver.commands(gameId)).toEqual([]);
    await runGame(t.current, gameId);
    expect(t.current.driver.servers.get(gameId)!.spec).toMatchObject({ motd: 'Later', spawnProtection: 0, allowFlight: true });
  });

  it.each([
    ['motd', 'x'.repeat(60)],
    ['gameMode', 'hardcore'],
    ['difficulty', 'insane'],
    ['pvp', 'yes'],
    ['maxPlayers', 0],
    ['viewDistance', 40],
    ['spawnProtection', -1],
    ['whitelistEnabled', 1],
    ['allowFlight', null],
  ])('refuses a bad %s with 400 naming it, in the reader’s language, and changes nothing', async (field, value) => {
    const { gameId } = await buyGame(t.current);
    const before = (await settingsOf(t.current, gameId)).json();
    const res = await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/settings`, payload: { motd: 'Changed', [field]: value }, headers: { cookie: 'locale=en' } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    expect((await settingsOf(t.current, gameId)).json()).toEqual(before);
  });

  it('refuses more players than the package’s, naming the field in French or English', async () => {
    const { gameId } = await buyGame(t.current);
    const fr = await put(t.current, gameId, { motd: 'Changed', maxPlayers: 11 });
    expect(fr.statusCode, fr.body).toBe(400);
    expect(fr.json().errors).toEqual([expect.objectContaining({ field: 'maxPlayers', code: 'settings.maxPlayersOverPackage', message: expect.stringMatching(/au plus 10/) })]);
    const en = await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/settings`, payload: { maxPlayers: 11 }, headers: { cookie: 'locale=en' } });
    expect(en.json().errors[0].message).toMatch(/at most 10/);
    expect((await settingsOf(t.current, gameId)).json().values).toMatchObject({ motd: 'My world', maxPlayers: 10 });
    expect((await put(t.current, gameId, { maxPlayers: 10 })).statusCode).toBe(200);
  });

  it('makes any image a 64×64 PNG icon, sent to the server at its start, and refuses what is no image', async () => {
    const { gameId } = await buyGame(t.current);
    const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3a7' } })
      .jpeg()
      .toBuffer();
    const res = await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/icon`, payload: { image: `data:image/jpeg;base64,${jpeg.toString('base64')}` } });
    expect(res.statusCode, res.body).toBe(200);
    const icon = res.json().settings.icon as string;
    expect(icon).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(icon.split(',')[1]!, 'base64');
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 64, height: 64 });
    expect((await settingsOf(t.current, gameId)).json().icon).toBe(icon);
    await runGame(t.current, gameId);
    expect(t.current.driver.servers.get(gameId)!.spec.icon).toBe(png.toString('base64'));

    const bad = await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/icon`, payload: { image: Buffer.from('not an image').toString('base64') } });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ field: 'image', code: 'settings.iconUnreadable' })]);
    expect((await settingsOf(t.current, gameId)).json().icon).toBe(icon);

    const removed = await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/icon`, payload: { image: null } });
    expect(removed.json().settings.icon).toBeNull();
  });

  it('answers 404 for another user’s game, and changes nothing', async () => {
    const { gameId } = await buyGame(t.current);
    expect((await settingsOf(t.current, gameId, 'bob')).statusCode).toBe(404);
    expect((await put(t.current, gameId, { motd: 'Mine now' }, 'bob')).statusCode).toBe(404);
    expect((await t.current.as('bob', { method: 'PUT', url: `/v1/game/${gameId}/icon`, payload: { image: null } })).statusCode).toBe(404);
    expect((await putVersion(t.current, gameId, { version: '1.21.4' }, 'bob')).statusCode).toBe(404);
    expect((await settingsOf(t.current, gameId)).json().values.motd).toBe('My world');
  });
});

describe('game version changes', { timeout: 60_000 }, () => {
  const t = useTestApp();

  it('takes an automatic backup first, then restarts a running server on the new version', async () => {
    const gameId = await gameWithVersions(t.current);
    await runGame(t.current, gameId);
    const res = await putVersion(t.current, gameId, { version: '1.21.4' });
    expect(res.json()).toEqual({ version: '1.21.4', restarting: false });

    const down = await putVersion(t.current, gameId, { version: '1.21.1' });
    expect(down.statusCode, down.body).toBe(409);
    expect(down.json()).toMatchObject({ code: 'settings.downgradeUnconfirmed' });
    expect(down.json().detail).toMatch(/1\.21\.4.*1\.21\.1/);
    expect(t.current.driver.calls.filter((c) => c.startsWith('backup'))).toEqual([]);

    const ok = await putVersion(t.current, gameId, { version: '1.21.1', confirmDowngrade: true });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ version: '1.21.1', restarting: true });
    const backups = (await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}/backups` })).json().data;
    expect(backups).toEqual([expect.objectContaining({ kind: 'AUTOMATIC', reason: 'beforeVersionChange', status: 'READY' })]);
    for (let i = 0; i < 4; i++) await t.current.app.services.reconciler.tick();
    // The backup came before the stop.
    const calls = t.current.driver.calls.filter((c) => c.includes(gameId));
    expect(calls.indexOf(`backup ${gameId}`)).toBeGreaterThan(-1);
    expect(calls.indexOf(`backup ${gameId}`)).toBeLessThan(calls.lastIndexOf(`stop ${gameId}`));
    expect(t.current.driver.servers.get(gameId)!.spec.version).toBe('1.21.1');
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json()).toMatchObject({ status: 'RUNNING', version: '1.21.1' });

    // Upgrading back needs no confirmation.
    const up = await putVersion(t.current, gameId, { version: '1.21.4' });
    expect(up.statusCode, up.body).toBe(200);
  });

  it('changes a stopped game’s version without a restart, and a world never started needs no backup', async () => {
    const gameId = await gameWithVersions(t.current);
    const res = await putVersion(t.current, gameId, { version: '1.20.4', confirmDowngrade: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ version: '1.20.4', restarting: false });
    expect((await settingsOf(t.current, gameId)).json().version).toBe('1.20.4');
  });

  it('changes nothing when the automatic backup fails', async () => {
    const gameId = await gameWithVersions(t.current);
    await runGame(t.current, gameId);
    t.current.driver.backup = async () => {
      throw new Error('disk full');
    };
    const res = await t.current.as('alice', { method: 'PUT', url: `/v1/game/${gameId}/version`, payload: { version: '1.21.1', confirmDowngrade: true }, headers: { cookie: 'locale=en' } });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'settings.versionBackupFailed', detail: expect.stringMatching(/backup .* failed/) });
    expect((await t.current.as('alice', { method: 'GET', url: `/v1/game/${gameId}` })).json()).toMatchObject({ status: 'RUNNING', version: '1.21.4' });
  });

  it('refuses a version the definition does not allow, naming the field', async () => {
    const { gameId } = await buyGame(t.current);
    await catalogue(t.current);
    const res = await putVersion(t.current, gameId, { version: '1.20.4', confirmDowngrade: true });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'version', code: 'settings.versionNotAllowed', message: expect.stringContaining('1.21.4') })]);
    expect((await settingsOf(t.current, gameId)).json().version).toBe('1.21.4');
  });

  it('lets staff allow only versions the runtime serves', async () => {
    const { definitionId } = await catalogue(t.current);
    const def = (await t.current.as('boss', { method: 'GET', url: `/v1/definition/game/${definitionId}`, roles: ['staff'] })).json();
    const { name, description, version, settings, published } = def;
    const res = await t.current.as('boss', {
      method: 'PUT',
      url: `/v1/definition/game/${definitionId}`,
      roles: ['staff'],
      payload: { name, description, version, settings, published, allowedVersions: ['1.21.1', '1.9.5'] },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'allowedVersions/1' })]);
  });
});
