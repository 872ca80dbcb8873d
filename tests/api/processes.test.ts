import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { freePort, startTestApp } from '../fixtures/app.ts';
import { openStream } from '../fixtures/sse.ts';

const node = process.execPath;
const baseEnv = () => {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  return env;
};
/** The server runs on the engine of this suite: PostgreSQL in its own schema, or PGlite in its data folder. */
async function serverDbEnv(): Promise<{ env: Record<string, string>; dispose: () => Promise<void> }> {
  if (process.env.TEST_DB_ENGINE !== 'postgres') return { env: {}, dispose: async () => {} };
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
    const start = () => {
      const child = spawn(node, ['src/server/main.ts'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const ready = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('server did not start')), 60_000);
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
      // A server that dies at start fails the test at once, with what it said.
      const started = Promise.race([ready, exited.then((code) => Promise.reject(new Error(`server exited with ${code} at start: ${stderr}`)))]);
      return { child, ready: started, exited };
    };
    try {
      const first = start();
      await first.ready;
      const out = spawnSync(node, ['src/server/identity/token-cli.ts', '--user', 'alice'], { env, encoding: 'utf8' });
      const token = out.stdout.trim().split('\n').at(-1)!;
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
    // Two cold starts of the whole product (migrations, seed) and a CLI run: allow each start its 60 s.
  }, 150_000);
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
