import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { loadOrCreateKeys } from '../src/server/identity/keys.ts';
import { signAccessToken } from '../src/server/identity/tokens.ts';
import { RESOURCE_CHANGE_EVENT, type ResourceChange } from '../src/contract/live.ts';
import { MemoryDriver } from '../tests/fixtures/memory-driver.ts';
import { percentile } from './load.ts';

/**
 * How long a game's status change takes from its commit on the server to the `resource-change`
 * event reaching the owner's open stream, read over HTTP and parsed as the web app does. The app
 * runs as it does in production (its reconciler loop, PGlite in a data folder or PostgreSQL with
 * DATABASE_URL, LISTEN/NOTIFY) with the in-memory game driver, so a start or stop takes no real
 * server. One game is started and stopped until `changes` status changes were seen: the owner's
 * start and stop (STARTING, STOPPING) and the reconciler's writes (launched, RUNNING, STOPPED).
 * The commit's instant is taken where the change is announced, right after the autocommitted
 * UPDATE, in this same process and clock as the stream's reader.
 */
export interface LiveFigures {
  changes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export async function liveBench(changes = 200, { timeoutMs = 180_000 } = {}): Promise<LiveFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-bench-live-'));
  const url = process.env.DATABASE_URL;
  const schemaName = `bench_live_${randomBytes(4).toString('hex')}`;
  const database = url ? await openDatabase({ url, schemaName }) : await openDatabase({ dataDir: path.join(dataDir, 'db') });
  const config = loadConfig({ DATA_DIR: dataDir, WEB_DIR: path.join(dataDir, 'no-web'), LOG_LEVEL: 'warn', PUBLIC_URL: 'http://localhost', RATE_LIMIT_API_PER_MINUTE: '10000000' });
  await database.migrate();
  const keys = await loadOrCreateKeys(config.oidc.keysFile);
  const app = await buildApp({ config, database, logger: false, runtime: new MemoryDriver().runtime });
  const token = (user: string, roles: string[] = []) => signAccessToken(config, keys, { username: user, roles });
  const as = async (user: string, method: 'GET' | 'POST', url: string, payload?: object, roles: string[] = []) => {
    const res = await app.inject({ method, url, headers: { authorization: `Bearer ${await token(user, roles)}` }, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.json();
  };

  // The instant each of the game's changes is announced after its commit, in order (the bench's
  // only look inside: it wraps the one call every producer makes).
  const committed: number[] = [];
  const arrived: number[] = [];
  let gameId = '';
  const { notifications } = app.services;
  const announce = notifications.changed.bind(notifications);
  notifications.changed = (userIds, change, executor) => {
    // Within a transaction the commit comes later: this bench's changes are all autocommitted.
    if ((executor === undefined || executor === database.db) && [change].flat().some((c) => c.resource === 'games' && c.ids.includes(gameId))) committed.push(performance.now());
    return announce(userIds, change, executor);
  };

  const controller = new AbortController();
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const definition = await as('bench_staff', 'POST', '/v1/definition/game', { name: { fr: 'Banc', en: 'Bench' }, description: { fr: 'Banc', en: 'Bench' }, version: '1.21.4', published: true }, [
      'staff',
    ]);
    const pkg = await as(
      'bench_staff',
      'POST',
      '/v1/definition/game/package',
      { definitionId: definition.id, name: { fr: 'Mois', en: 'Month' }, ramMb: 1024, maxPlayers: 10, periodDays: 30, priceCredits: 0 },
      ['staff'],
    );
    gameId = (await as('live_owner', 'POST', '/v1/game/create', { definitionId: definition.id, packageId: pkg.id, name: 'Live bench' })).id;

    const res = await fetch(`http://127.0.0.1:${port}/v1/user/notifications/stream`, { headers: { authorization: `Bearer ${await token('live_owner')}` }, signal: controller.signal });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
        if (done) return;
        if (value.event !== RESOURCE_CHANGE_EVENT) continue;
        const change = JSON.parse(value.data) as ResourceChange;
        if (change.resource === 'games' && change.ids.includes(gameId)) arrived.push(performance.now());
      }
    })();

    const deadline = Date.now() + timeoutMs;
    const until = async (status: string) => {
      while ((await as('live_owner', 'GET', `/v1/game/${gameId}`)).status !== status) {
        if (Date.now() > deadline) throw new Error(`the game did not reach ${status} in time`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    while (committed.length < changes) {
      await as('live_owner', 'POST', `/v1/game/${gameId}/start`);
      await until('RUNNING');
      await as('live_owner', 'POST', `/v1/game/${gameId}/stop`);
      await until('STOPPED');
    }
    while (arrived.length < committed.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (arrived.length !== committed.length) throw new Error(`${committed.length} changes committed, ${arrived.length} reached the stream`);
    const times = committed.map((at, i) => arrived[i]! - at).sort((a, b) => a - b);
    return { changes: times.length, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), maxMs: times[times.length - 1]! };
  } finally {
    controller.abort();
    await app.close();
    if (url) await database.db.execute(sql.raw(`drop schema if exists "${schemaName}" cascade`));
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
