import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../fixtures/app.ts';
import { seedTournaments } from '../../src/server/modules/competitions/tournament-seed.ts';

describe('errors', () => {
  it('answers a 5xx as problem+json without saying what failed inside', async () => {
    const t = await startTestApp();
    try {
      t.app.get('/v1/boom', async () => {
        throw new Error('connection to db-primary:5432 failed for user secret_admin');
      });
      const res = await t.app.inject({ url: '/v1/boom' });
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toEqual({ type: 'https://httpstatuses.io/500', title: 'Internal Server Error', status: 500, code: 'request.unexpected', detail: expect.any(String) });
      expect(res.body).not.toContain('secret_admin');
    } finally {
      await t.close();
    }
  });
});

describe('request bodies', () => {
  it('refuses a JSON body whose bytes are not UTF-8 with a 400, and stores nothing', async () => {
    const t = await startTestApp();
    try {
      // {"name":"<0xff 0xfe>"}: Node would decode the two bytes to U+FFFD and store that.
      const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
      const res = await t.as('alice', { method: 'POST', url: '/v1/friend/group', headers: { 'content-type': 'application/json' }, payload: body });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ status: 400, code: 'request.invalidUtf8', detail: "Le corps n'est pas de l'UTF-8 valide" });
      const groups = await t.as('alice', { url: '/v1/friend/group' });
      expect(groups.json()).toMatchObject({ totalElements: 0 });

      // The same text well encoded is taken.
      const good = await t.as('alice', { method: 'POST', url: '/v1/friend/group', headers: { 'content-type': 'application/json' }, payload: Buffer.from('{"name":"Équipe ✓"}') });
      expect(good.statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });
});

describe('API rate limit', () => {
  it('answers 429 problem+json past the per-minute limit of a token, and not for another user', async () => {
    const t = await startTestApp({ RATE_LIMIT_API_PER_MINUTE: '3' });
    try {
      const statuses = [];
      const token = await t.token('alice');
      for (let i = 0; i < 4; i++) statuses.push((await t.app.inject({ url: '/v1/user', headers: { authorization: `Bearer ${token}` } })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await t.app.inject({ url: '/v1/user', headers: { authorization: `Bearer ${token}` } });
      expect(limited.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
      expect(limited.json()).toMatchObject({ code: 'request.tooManyRequests', detail: expect.stringMatching(/^Trop de requêtes : réessayez dans \d+ s$/) });
      expect((await t.as('bob', { method: 'GET', url: '/v1/user' })).statusCode).toBe(200);
      // Health checks are never limited.
      for (let i = 0; i < 5; i++) expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('keys anonymous calls on the address: a made-up Authorization header buys no fresh allowance', async () => {
    const t = await startTestApp({ RATE_LIMIT_API_PER_MINUTE: '3' });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        const junk = i % 2 ? `Bearer ${randomBytes(8).toString('hex')}` : `Bearer a.${randomBytes(30).toString('base64url')}.c`;
        statuses.push((await t.app.inject({ url: '/v1/definition/game/list', headers: { authorization: junk } })).statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      // A real user has their own allowance, whatever the address has used.
      expect((await t.as('alice', { method: 'GET', url: '/v1/user' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('web app', () => {
  it('serves built files, and index.html for app routes (404 for unknown pages) but not for API paths', async () => {
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>BlockHost</title><div id="root"></div>');
    fs.writeFileSync(path.join(webDir, 'assets', 'app-1234.js'), 'console.log(1)');
    // inject's requests come to localhost:80: that is the public address here.
    const t = await startTestApp({ WEB_DIR: webDir, PUBLIC_URL: 'http://localhost' });
    try {
      const asset = await t.app.inject({ url: '/assets/app-1234.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');
      // Every page of the app, reloaded, is the app (docs/product.md, Routes): the game's tabs, the
      // notifications, the back office's own address.
      for (const url of [
        '/',
        '/dashboard',
        '/dashboard/game/42',
        '/dashboard/game/42/backups',
        '/en/dashboard/game/42/settings',
        '/dashboard/notifications',
        '/dashboard/staff',
        '/dashboard/staff/audit',
        '/en/about',
      ]) {
        const page = await t.app.inject({ url, headers: { accept: 'text/html' } });
        expect(page.statusCode, url).toBe(200);
        expect(page.body).toContain('<div id="root">');
      }
      // Content pages and the tournaments' are pages too; anything else is the app's 'Page not found', with a 404.
      await t.app.services.competitions.seedModes(new Map());
      await seedTournaments(t.app.services.db, 'duel-1-8-8', []);
      for (const url of ['/ranked/coupe-hiver-2026', '/dashboard/ranked/coupe-hiver-2026', '/en/mentions-legales']) expect((await t.app.inject({ url })).statusCode, url).toBe(200);
      expect((await t.app.inject({ url: '/ranked/no-such-cup' })).statusCode).toBe(404);
      const missing = await t.app.inject({ url: '/fr/no/such-page' });
      expect(missing.statusCode).toBe(404);
      expect((await t.app.inject({ url: '/dashboard/game/42/no-such-tab' })).statusCode).toBe(404);
      expect(missing.body).toContain('<div id="root">');
      const api = await t.app.inject({ url: '/v1/missing' });
      expect(api.statusCode).toBe(404);
      expect(api.headers['content-type']).toContain('application/problem+json');
      // www. moves to the bare host for good.
      const www = await t.app.inject({ url: '/about?a=1', headers: { host: 'www.blockhost.example' } });
      expect(www.statusCode).toBe(301);
      expect(www.headers.location).toBe('http://blockhost.example/about?a=1');
      // Any other address of this server moves to the public one, or sign-in would break there.
      const other = await t.app.inject({ url: '/dashboard/game/42?tab=players', headers: { host: '127.0.0.1:8080' } });
      expect(other.statusCode).toBe(302);
      expect(other.headers.location).toBe('http://localhost/dashboard/game/42?tab=players');
      // The API and health checks answer on any address.
      for (const url of ['/v1/definition/game/list', '/healthz']) expect((await t.app.inject({ url, headers: { host: '127.0.0.1:8080' } })).statusCode, url).toBe(200);
    } finally {
      await t.close();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  });
});

describe('request log', () => {
  it('writes one line per request: its id, the user, method, path, status and duration', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const t = await startTestApp({}, { logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } });
    try {
      const me = await t.as('alice', { method: 'GET', url: '/v1/user' });
      await t.app.inject({ url: '/v1/user' });
      const requests = lines.filter((l) => l.url === '/v1/user');
      expect(requests).toHaveLength(2);
      expect(requests[0]).toMatchObject({ reqId: expect.any(String), userId: me.json().id, method: 'GET', status: 200, ms: expect.any(Number) });
      expect(requests[1]).toMatchObject({ reqId: expect.any(String), method: 'GET', status: 401 });
      expect(requests[1]!.userId).toBeUndefined();
      expect(requests[0]!.reqId).not.toBe(requests[1]!.reqId);
    } finally {
      await t.close();
    }
  });
});
