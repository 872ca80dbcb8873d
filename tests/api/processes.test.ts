import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { freePort, startTestApp } from '../fixtures/app.ts';
import { ensurePgliteSnapshot } from '../fixtures/db.ts';
import { randomPortRange } from '../fixtures/minecraft.ts';
import { openStream } from '../fixtures/sse.ts';
import { OidcClient } from '../fixtures/oidc-client.ts';
import { loadConfig } from '../../src/server/config.ts';
import { loadOrCreateKeys } from '../../src/server/identity/keys.ts';
import { signAccessToken } from '../../src/server/identity/tokens.ts';

const node = process.execPath;
const baseEnv = () => {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  return env;
};
/**
 * The server runs on the engine of this suite: PostgreSQL in its own schema, or PGlite in its data
 * folder. With `migratedIn`, PGlite's folder there starts as the suites' migrated database
 * (tests/fixtures/db.ts): a new folder costs PGlite's initdb and the migrations, some 10 s of CPU,
 * which the first test pays as `npm start` on a new machine does, and the others need not.
 */
async function serverDbEnv(migratedIn?: string): Promise<{ env: Record<string, string>; dispose: () => Promise<void> }> {
  if (process.env.TEST_DB_ENGINE !== 'postgres') {
    if (migratedIn) {
      const { openDatabase } = await import('../../src/server/db/client.ts');
      const snapshot = new Blob([fs.readFileSync(await ensurePgliteSnapshot())]);
      await (await openDatabase({ dataDir: path.join(migratedIn, 'db'), snapshot })).close();
    }
    return { env: {}, dispose: async () => {} };
  }
  const schema = `p_${Math.random().toString(16).slice(2, 10)}`;
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const { openDatabase } = await import('../../src/server/db/client.ts');
  const admin = await openDatabase({ url: process.env.TEST_DATABASE_URL, poolSize: 1 });
  await admin.db.execute(`create schema "${schema}"`);
  await admin.close();
  const dispose = async () => {
    const db = await openDatabase({ url: process.env.TEST_DATABASE_URL, poolSize: 1 });
    await db.db.execute(`drop schema if exists "${schema}" cascade`);
    await db.close();
  };
  return { env: { DATABASE_URL: url.href }, dispose };
}

/**
 * Starts the API as `npm start` does. `ready` resolves once it answers, and rejects at once, with
 * what it said, if it exits first. With `group`, it leads a process group of its own, so the test
 * can kill it together with every process it started, as a container's end does. With
 * `crashAfter`, it kills itself with SIGKILL once a statement matching it has run
 * (tests/fixtures/crash-point.ts). With `holdRestore`, a restore it runs stops once it has made its
 * staging folder (tests/fixtures/hold-restore.ts).
 */
function startApi(env: Record<string, string>, port: number, options: { group?: boolean; crashAfter?: RegExp; holdRestore?: boolean } = {}) {
  const args = options.crashAfter ? ['--import', './tests/fixtures/crash-point.ts', 'src/server/main.ts'] : ['src/server/main.ts'];
  const childEnv: Record<string, string> = { ...env, ...(options.crashAfter ? { CRASH_AFTER_QUERY: options.crashAfter.source } : {}) };
  // In every process it starts, the world tool among them (tests/fixtures/hold-restore.ts).
  if (options.holdRestore) childEnv.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ''} --import=${path.resolve('tests/fixtures/hold-restore.ts')}`;
  const child = spawn(node, args, { env: childEnv, stdio: ['ignore', 'ignore', 'pipe'], detached: options.group ?? false });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const ready = new Promise<void>((resolve, reject) => {
    // A cold start (migrations, seed) takes some 45 s on a busy two-core machine.
    const timer = setTimeout(() => reject(new Error('server did not start')), 120_000);
    const poll = async () => {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return (clearTimeout(timer), resolve());
      } catch {
        // not yet listening
      }
      setTimeout(poll, 100);
    };
    void poll();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started = Promise.race([ready, exited.then((code) => Promise.reject(new Error(`server exited with ${code} at start: ${stderr}`)))]);
  return { child, ready: started, exited, stderr: () => stderr };
}

/**
 * A token for the API started with `env`, as `npm run token` prints it (tested on its own below),
 * made in this process: the CLI as a process of its own costs a second of CPU each time.
 */
async function tokenFor(env: Record<string, string>, username: string, ...roles: string[]): Promise<string> {
  const config = loadConfig(env);
  return signAccessToken(config, await loadOrCreateKeys(config.oidc.keysFile), { username, roles });
}

/** Asks `probe` every 250 ms until it answers something truthy; fails after `ms`, saying what it waited for. */
async function until<T>(what: string, probe: () => Promise<T | false | undefined>, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const answer = await probe();
    if (answer) return answer;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the server process', () => {
  it('refuses a bad setting at start, naming the variable', () => {
    const res = spawnSync(node, ['src/server/main.ts'], { env: { ...baseEnv(), PORT: 'eighty' }, encoding: 'utf8', timeout: 30_000 });
    expect(res.status).toBe(78);
    expect(res.stderr).toContain('Configuration error: PORT="eighty" is invalid: expected a whole number from 0 to 65535');
  });

  it('shuts down on SIGTERM: in-flight requests finish, streams close, nothing is lost', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-proc-'));
    const port = await freePort();
    const db = await serverDbEnv();
    const env = { ...baseEnv(), ...db.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, WEB_DIR: path.join(dataDir, 'none') };
    const start = () => startApi(env, port);
    try {
      const first = start();
      await first.ready;
      const token = await tokenFor(env, 'alice');
      const auth = { authorization: `Bearer ${token}` };
      const stream = await openStream(`http://127.0.0.1:${port}/v1/user/notifications/stream`, token);

      const inFlight = Array.from({ length: 20 }, () =>
        fetch(`http://127.0.0.1:${port}/v1/user/notification`, { method: 'POST', headers: auth }).then(
          (r) => r.status,
          () => 0,
        ),
      );
      await new Promise((r) => setTimeout(r, 20));
      first.child.kill('SIGTERM');
      const statuses = await Promise.all(inFlight);
      expect(await first.exited).toBe(0);
      await stream.closed;
      const created = statuses.filter((s) => s === 201).length;
      expect(created).toBeGreaterThan(0);
      // Every request either completed or was refused; none died half-way.
      expect(statuses.every((s) => s === 201 || s === 503 || s === 0)).toBe(true);

      const second = start();
      await second.ready;
      const list = await (await fetch(`http://127.0.0.1:${port}/v1/user/notifications?size=100`, { headers: auth })).json();
      expect(list.totalElements).toBe(created);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await db.dispose();
    }
    // Two cold starts of the whole product (migrations, seed) and a CLI run: allow each start its 120 s.
  }, 270_000);

  it('resumes a restore the API was killed in the middle of: the backup put back, the server running again, the owner told', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-restore-kill-'));
    const port = await freePort();
    const db = await serverDbEnv(dataDir);
    const { from, to } = randomPortRange();
    const env = {
      ...baseEnv(),
      ...db.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIR: path.join(dataDir, 'none'),
      GAME_DRIVER: 'local',
      GAME_HOST: '127.0.0.1',
      GAME_PORT_RANGE: `${from}-${to}`,
      // The dead process's lock lapses in 10 s rather than a minute, and the rounds come as often.
      GAME_LOCK_SECONDS: '10',
    };
    const servers: Array<ReturnType<typeof startApi>> = [];
    try {
      const first = startApi(env, port, { group: true, holdRestore: true });
      servers.push(first);
      await first.ready;
      const token = await tokenFor(env, 'alice');
      const api = async (method: 'GET' | 'POST', url: string, body?: object) => {
        const res = await fetch(`http://127.0.0.1:${port}${url}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        const text = await res.text();
        return { status: res.status, json: text ? JSON.parse(text) : undefined };
      };
      // Alice's game of the seeded catalogue, on real flying-squid.
      const survival = (await api('GET', '/v1/definition/game/list')).json.data.find((d: { name: { en: string } }) => d.name.en === 'Survival');
      const small = survival.packages.find((p: { name: { en: string } }) => p.name.en === 'Small');
      const created = await api('POST', '/v1/game/create', { definitionId: survival.id, packageId: small.id, name: 'My world' });
      expect(created.status).toBe(201);
      const gameId: string = created.json.id;
      const running = () =>
        until('the server running', async () => {
          const live = (await api('GET', `/v1/game/${gameId}/status`)).json;
          // RUNNING and answering: the address comes once the server answers its ping.
          return live.status === 'RUNNING' && live.address !== null && live;
        });

      expect((await api('POST', `/v1/game/${gameId}/start`)).status).toBe(200);
      await running();

      // A marker of the moment the world was backed up.
      const gameDir = path.join(dataDir, 'games', gameId);
      const world = path.join(gameDir, 'world');
      fs.writeFileSync(path.join(world, 'castle.txt'), 'before');
      const taken = await api('POST', `/v1/game/${gameId}/backups`, {});
      expect(taken.status).toBe(202);
      const backupId: string = taken.json.id;
      const backupOf = async () => ((await api('GET', `/v1/game/${gameId}/backups`)).json.data as Array<{ id: string; status: string }>).find((b) => b.id === backupId);
      await until('the backup READY', async () => (await backupOf())?.status === 'READY');
      fs.writeFileSync(path.join(world, 'castle.txt'), 'after');

      // The API dies, and all it started with it, once the restore is unpacking the backup: the
      // server stopped for it, the world not yet swapped (the world tool holds there, stopped).
      const unpacking = new Promise<void>((resolve) => {
        const watcher = fs.watch(gameDir, (_event, name) => {
          if (!name?.startsWith('world.staging-')) return;
          process.kill(-first.child.pid!, 'SIGKILL');
          watcher.close();
          resolve();
        });
      });
      expect((await api('POST', `/v1/game/${gameId}/backups/${backupId}/restore`)).status).toBe(202);
      await Promise.race([unpacking, first.exited.then((code) => Promise.reject(new Error(`the API exited with ${code} before the restore unpacked: ${first.stderr()}`)))]);
      await first.exited;
      expect(fs.readFileSync(path.join(world, 'castle.txt'), 'utf8')).toBe('after');

      // The next API, on the same database and data folder, takes the restore up again once the
      // dead one's lock lapsed (at the first round after it), and starts the server again since it ran.
      const second = startApi(env, port, { group: true });
      servers.push(second);
      await second.ready;
      const notices = await until(
        'the owner told of the resumed restore',
        async () => {
          const list = (await api('GET', '/v1/user/notifications?size=100')).json.data as Array<{ data: { key: string; params: Record<string, unknown> } }>;
          return list.some((n) => ['backup.restoreResumed', 'backup.restoreFailed'].includes(n.data.key)) && list;
        },
        180_000,
      );
      expect(notices.map((n) => n.data.key)).not.toContain('backup.restoreFailed');
      expect(notices.find((n) => n.data.key === 'backup.restoreResumed')!.data.params).toMatchObject({ name: 'My world' });
      await running();
      expect((await api('GET', `/v1/game/${gameId}`)).json).toMatchObject({ status: 'RUNNING', desiredState: 'running' });
      expect(fs.readFileSync(path.join(world, 'castle.txt'), 'utf8')).toBe('before');
      expect(fs.readdirSync(gameDir).filter((name) => name.startsWith('world.staging-') || name.startsWith('.world-backup-'))).toEqual([]);
      // The backup put back is still there, whatever the two safety backups taken before it.
      expect(await backupOf()).toMatchObject({ status: 'READY' });

      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      // A failed run leaves no API nor game server behind.
      for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) process.kill(-server.child.pid!, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
      await db.dispose();
    }
    // Two starts of the whole product, two server starts, four archives of the world, and the time the dead process's lock holds.
  }, 600_000);

  it('finishes an account deletion the API was killed in the middle of, once: the account never signs in again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-deletion-kill-'));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const db = await serverDbEnv(dataDir);
    // The dead process's lease on the deletion lapses in 5 s rather than 5 minutes.
    const env = { ...baseEnv(), ...db.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, DATA_DIR: dataDir, WEB_DIR: path.join(dataDir, 'none'), ACCOUNT_DELETION_LEASE_SECONDS: '5' };
    const servers: Array<ReturnType<typeof startApi>> = [];
    const tokenOf = (user: string, ...roles: string[]) => tokenFor(env, user, ...roles);
    const api = async (token: string, method: 'GET' | 'POST', url: string, body?: object) => {
      const res = await fetch(`${origin}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : undefined };
    };
    try {
      const first = startApi(env, port, { group: true });
      servers.push(first);
      await first.ready;
      const password = 'Leaving-soon-2026';
      const kim = ((await new OidcClient(origin).signUp('kim', 'kim@example.com', password)).body as { access_token: string }).access_token;
      const bob = await tokenOf('bob');
      const staff = await tokenOf('boss', 'staff');
      const kimId: string = (await api(kim, 'GET', '/v1/user')).json.id;
      const bobId: string = (await api(bob, 'GET', '/v1/user')).json.id;
      expect((await api(bob, 'POST', '/v1/friend', { userId: kimId })).status).toBeLessThan(300);
      expect((await api(kim, 'POST', '/v1/friend', { userId: bobId })).status).toBeLessThan(300);
      expect((await api(staff, 'POST', '/v1/user/credit', { userId: kimId, amount: 40, reason: 'before leaving' })).status).toBe(200);

      // The API dies as it answers: the deletion's round, started in the background, is anywhere in its work, or not begun.
      const deleted = await api(kim, 'POST', '/v1/account/delete', { password });
      process.kill(-first.child.pid!, 'SIGKILL');
      expect(deleted).toMatchObject({ status: 200, json: { creditsForfeited: 40 } });
      await first.exited;

      // The next API refuses the account at once, and finishes its deletion once the lease lapsed.
      const second = startApi(env, port, { group: true });
      servers.push(second);
      await second.ready;
      expect((await api(kim, 'GET', '/v1/user')).status).toBe(401);
      const signIn = new OidcClient(origin);
      const page = await signIn.startSignIn();
      expect(await signIn.follow(await signIn.postForm(`${page}/login`, { login: 'kim', password }))).not.toBeInstanceOf(URL);
      await until(
        'the deletion finished',
        async () => (await api(staff, 'GET', `/v1/staff/users/${kimId}`)).json?.name === `Compte supprimé ${kimId.slice(0, 8)}` && (await api(bob, 'GET', '/v1/friend')).json.totalElements === 0,
      );
      const ledger = (await api(staff, 'GET', `/v1/staff/transactions?userId=${kimId}`)).json.data as Array<{ kind: string; amount: number }>;
      expect(ledger.filter((e) => e.kind === 'FORFEIT')).toEqual([expect.objectContaining({ amount: -40 })]);

      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) process.kill(-server.child.pid!, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
      await db.dispose();
    }
  }, 600_000);
});

describe('a tournament’s payments under SIGKILL', () => {
  it('gives a refund and a prize once when the API is killed after their ledger line, before the commit, and the rounds run again', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-tournament-kill-'));
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const db = await serverDbEnv(dataDir);
    const env = { ...baseEnv(), ...db.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, DATA_DIR: dataDir, WEB_DIR: path.join(dataDir, 'none') };
    const servers: Array<ReturnType<typeof startApi>> = [];
    const tokenOf = (user: string, ...roles: string[]) => tokenFor(env, user, ...roles);
    const api = async (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object) => {
      const res = await fetch(`${origin}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : undefined };
    };
    /** The process dies by its own SIGKILL at the statement named, having said so. */
    const killedAt = async (server: ReturnType<typeof startApi>) => {
      await server.exited;
      expect(server.child.signalCode).toBe('SIGKILL');
      expect(server.stderr()).toContain('crash point reached');
    };
    // The ledger line of this tournament's refund, then of its prize (its name is in the line's reason).
    const ledgerLine = (kind: string) => new RegExp(`insert into "ledger_entries"[^]*"${kind}"[^]*Crash cup`);
    try {
      const first = startApi(env, port, { group: true, crashAfter: ledgerLine('TOURNAMENT_REFUND') });
      servers.push(first);
      await first.ready;
      const staff = await tokenOf('boss', 'staff');
      const players = Object.fromEntries(await Promise.all(['alice', 'bob', 'carol'].map(async (name) => [name, await tokenOf(name)] as const)));
      const ids: Record<string, string> = {};
      const balance = async (name: string): Promise<number> => (await api(players[name]!, 'GET', '/v1/user')).json.balance;
      const before: Record<string, number> = {};
      for (const [name, token] of Object.entries(players)) {
        ids[name] = (await api(token, 'GET', '/v1/user')).json.id;
        expect((await api(token, 'POST', '/v1/user/mcuuid', { mcName: `${name}_mc` })).status).toBeLessThan(300);
        expect((await api(staff, 'POST', '/v1/user/credit', { userId: ids[name], amount: 50, reason: 'entry fee' })).status).toBe(200);
        before[name] = await balance(name);
      }
      // The mode's definition has no package left: its matches get no server, and the supervision
      // voids each at its next round; the third void sends the better seed on, which ends the final.
      for (const d of (await api(staff, 'GET', '/v1/definition/game/list?size=100')).json.data as Array<{ version: string; packages: Array<{ id: string }> }>) {
        if (d.version !== '1.8.8') continue;
        for (const p of d.packages) expect((await api(staff, 'DELETE', `/v1/definition/game/package?id=${p.id}`)).status).toBe(204);
      }
      const modeId: string = (await api(staff, 'GET', '/v1/ranked/modes')).json.data[0].id;
      const at = (ms: number) => new Date(Date.now() + ms).toISOString();
      const made = await api(staff, 'POST', '/v1/staff/tournaments', {
        slug: 'crash-cup',
        name: { fr: 'Coupe du crash', en: 'Crash cup' },
        rules: { fr: 'Premier à 3.', en: 'First to 3.' },
        modeId,
        format: 'SINGLE_ELIMINATION',
        maxEntrants: 8,
        registrationOpensAt: at(-3600_000),
        registrationClosesAt: at(3600_000),
        checkInOpensAt: at(-60_000),
        checkInClosesAt: at(3600_000),
        startsAt: at(3600_000),
        entryFee: 10,
        prizeFirst: 100,
        prizeSecond: 0,
        prizeThird: 0,
      });
      expect(made.status).toBe(201);
      for (const token of Object.values(players)) expect((await api(token, 'POST', '/v1/tournaments/crash-cup/registration')).status).toBe(201);
      for (const name of ['alice', 'bob']) expect((await api(players[name]!, 'POST', '/v1/tournaments/crash-cup/check-in')).status).toBe(200);
      // Staff bring the start forward to now: the next round starts it, refunding Carol, who did not
      // check in. The API dies once her refund's ledger line is written, her entry marked MISSED in
      // the same transaction, before its commit.
      const now = at(0);
      expect((await api(staff, 'PUT', `/v1/staff/tournaments/${made.json.id}`, { registrationClosesAt: now, checkInClosesAt: now, startsAt: now })).status).toBe(200);
      await killedAt(first);

      // The next API's start round refunds her again, now once, and starts the final; it dies once
      // the prize's ledger line is written, before its payout row is marked with it and the commit.
      const second = startApi(env, port, { group: true, crashAfter: ledgerLine('TOURNAMENT_PRIZE') });
      servers.push(second);
      await second.ready;
      await killedAt(second);

      // The third's supervision ends the final again, and pays the prize, once.
      const third = startApi(env, port, { group: true });
      servers.push(third);
      await third.ready;
      const over = await until('the tournament finished', async () => {
        const page = (await api(staff, 'GET', '/v1/tournaments/crash-cup')).json;
        return page.status === 'FINISHED' && page;
      });
      const ledger = async (name: string, kind: string) =>
        ((await api(staff, 'GET', `/v1/staff/transactions?userId=${ids[name]}&size=100`)).json.data as Array<{ kind: string; amount: number }>).filter((e) => e.kind === kind).map((e) => e.amount);
      const winner = Object.keys(ids).find((name) => ids[name] === over.winner.id)!;
      expect(['alice', 'bob']).toContain(winner);
      expect(await ledger(winner, 'TOURNAMENT_PRIZE')).toEqual([100]);
      expect(await ledger(winner === 'alice' ? 'bob' : 'alice', 'TOURNAMENT_PRIZE')).toEqual([]);
      expect(await ledger('carol', 'TOURNAMENT_REFUND')).toEqual([10]);
      expect(await balance('carol')).toBe(before.carol);
      expect(await balance(winner)).toBe(before[winner]! - 10 + 100);

      third.child.kill('SIGTERM');
      expect(await third.exited).toBe(0);
    } finally {
      for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) process.kill(-server.child.pid!, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
      await db.dispose();
    }
    // Three starts of the whole product (from the migrated database on PGlite) and the rounds between.
  }, 600_000);
});

describe('npm run token', () => {
  it('prints on its last line a token the API accepts for that user and role', async () => {
    const t = await startTestApp();
    try {
      const env = { ...baseEnv(), OIDC_KEYS_FILE: t.config.oidc.keysFile, DATA_DIR: t.config.dataDir, PUBLIC_URL: t.config.publicUrl };
      const res = spawnSync(node, ['src/server/identity/token-cli.ts', '--user', 'carol', '--role', 'staff'], { env, encoding: 'utf8' });
      expect(res.status).toBe(0);
      const token = res.stdout.trim().split('\n').at(-1)!;
      const me = await t.app.inject({ url: '/v1/user', headers: { authorization: `Bearer ${token}` } });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ name: 'carol', roles: ['staff'] });
    } finally {
      await t.close();
    }
  });

  it('works as the README shows for a server on another port: the token names that server as its issuer', async () => {
    const port = await freePort();
    // What `PORT=<port> npm start` runs with: PUBLIC_URL and the issuer follow the port.
    const t = await startTestApp({ PORT: String(port), PUBLIC_URL: `http://localhost:${port}` });
    try {
      await t.app.listen({ port, host: '127.0.0.1' });
      const env: Record<string, string> = { ...baseEnv(), PORT: String(port), DATA_DIR: t.config.dataDir, OIDC_KEYS_FILE: t.config.oidc.keysFile };
      delete env.PUBLIC_URL;
      const cli = spawnSync(node, ['src/server/identity/token-cli.ts', '--user', 'alice'], { env, encoding: 'utf8' });
      expect(cli.status).toBe(0);
      expect(decodeJwt(cli.stdout.trim().split('\n').at(-1)!).iss).toBe(t.config.oidc.issuer);

      // The README's own example, run in a shell with that environment (not synchronously: the server answers in this process).
      const readme = fs.readFileSync('README.md', 'utf8');
      const example = /`npm run token[^]*?```sh\n([^]*?)```/.exec(readme)![1]!.replaceAll('http://localhost', 'http://127.0.0.1');
      const run = await promisify(execFile)('sh', ['-c', `set -e\n${example.replaceAll('curl ', 'curl -sS --fail-with-body ')}`], { env, timeout: 60_000 }).catch(
        (err: { stdout: string; stderr: string }) => err,
      );
      expect(run.stderr).not.toMatch(/curl/);
      expect(JSON.parse(run.stdout)).toMatchObject({ name: 'alice' });
    } finally {
      await t.close();
    }
  });

  it('refuses when the issuer is not the embedded one', () => {
    const res = spawnSync(node, ['src/server/identity/token-cli.ts', '--user', 'carol'], {
      env: { ...baseEnv(), OIDC_ISSUER: 'https://sso.example.com/realms/blockhost' },
      encoding: 'utf8',
    });
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('tokens can only be made for the embedded provider');
  });
});
