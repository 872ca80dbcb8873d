import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../src/server/config.ts';
import { loadOrCreateKeys } from '../../src/server/identity/keys.ts';
import { signAccessToken } from '../../src/server/identity/tokens.ts';
import { freePort } from '../fixtures/app.ts';
import { createDatabase } from '../fixtures/pg-database.ts';
import { s3Env, startS3Server } from '../fixtures/s3-server.ts';

/** The PostgreSQL server the cluster makes its database on: this machine's, as the other suites use. */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Replica {
  origin: string;
  process: ChildProcess;
  /** What it printed, for the message of a failing test. */
  output(): string;
}

export interface Cluster {
  replicas: [Replica, Replica];
  /** A new database of this cluster alone, for checks the API does not show. */
  sql(query: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  /** A bearer token from the replicas' shared identity keys. */
  token(username: string, roles?: string[]): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Two API processes (`node src/server/main.ts`, as a deployment runs them) on one new PostgreSQL
 * database, this machine's Redis under a key prefix of their own, one S3-compatible bucket
 * (s3rver) and one identity key file: what two replicas behind a load balancer share. Each has
 * its own data folder, so nothing passes between them but through those. `env` is added to both
 * (the suite drops REDIS_URL to show what it is for).
 */
export async function startCluster(env: Record<string, string | undefined> = {}): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-replicas-'));
  const database = await createDatabase(ADMIN_URL, 'blockhost_replicas');
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const s3 = await startS3Server('blockhost');
  const ports = [await freePort(), await freePort()];
  const keysFile = path.join(dir, 'oidc-keys.json');
  const shared = {
    HOST: '127.0.0.1',
    // The address users reach; the issuer is the same for both, as behind a load balancer.
    PUBLIC_URL: `http://127.0.0.1:${ports[0]}`,
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_KEY_PREFIX: `replicas:${randomBytes(6).toString('hex')}:`,
    ...s3Env(s3),
    OIDC_KEYS_FILE: keysFile,
    WEB_DIR: path.join(dir, 'no-web'),
    // Each try of the sign-in suite comes "from" another address, to tell the per-account limit from the per-address one.
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'warn',
    ...env,
  };
  const config = loadConfig(Object.fromEntries(Object.entries(shared).filter((e): e is [string, string] => e[1] !== undefined)));
  const keys = await loadOrCreateKeys(keysFile);

  const replicas = ports.map((port, i): Replica => {
    const dataDir = path.join(dir, `replica-${i}`);
    const child = spawn(process.execPath, ['src/server/main.ts'], {
      env: { ...process.env, ...shared, PORT: String(port), DATA_DIR: dataDir, GAME_PORT_RANGE: `${21000 + 100 * i}-${21099 + 100 * i}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    const keep = (chunk: Buffer) => (printed = (printed + chunk.toString()).slice(-20_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    return { origin: `http://127.0.0.1:${port}`, process: child, output: () => printed };
  }) as [Replica, Replica];

  const stop = async () => {
    for (const r of replicas) {
      if (r.process.exitCode !== null || r.process.signalCode !== null) continue;
      const exited = new Promise((resolve) => r.process.once('exit', resolve));
      r.process.kill('SIGTERM');
      await exited;
    }
    await pool.end();
    await s3.stop();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    // Both start at once on the new database, as a Deployment's pods do.
    await Promise.all(replicas.map((r) => ready(r)));
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    replicas,
    sql: async (query, params = []) => (await pool.query(query, params)).rows as Array<Record<string, unknown>>,
    token: (username, roles = []) => signAccessToken(config, keys, { username, roles }),
    stop,
  };
}

/** Waits for a replica's `/readyz`; rejects with what it printed when it exits or takes a minute. */
async function ready(replica: Replica): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (replica.process.exitCode !== null) throw new Error(`replica ${replica.origin} exited (${replica.process.exitCode}):\n${replica.output()}`);
    const ok = await fetch(`${replica.origin}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`replica ${replica.origin} not ready after 60 s:\n${replica.output()}`);
}
