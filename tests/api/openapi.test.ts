import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../fixtures/app.ts';
import { OpenapiCheck } from '../fixtures/openapi-check.ts';

type Operation = { operationId?: string; security?: unknown[]; parameters?: Array<{ in: string; name: string }>; responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

/** openapi-fetch's default path serializer: each `{name}` filled with its encoded value. */
const fill = (template: string, params: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!));

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  let contentDir: string;
  const operations = () => Object.entries(doc.paths).flatMap(([url, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${url}`, op })));

  beforeAll(async () => {
    contentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-content-'));
    fs.mkdirSync(path.join(contentDir, 'fr/ranked/2027'), { recursive: true });
    fs.writeFileSync(path.join(contentDir, 'fr/ranked/2027/spring-cup.md'), '---\ntitle: Coupe de printemps\n---\nUn tournoi.\n');
    t = await startTestApp({ CONTENT_DIR: contentDir });
    doc = (await t.app.inject({ url: '/v1/openapi.json' })).json();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(contentDir, { recursive: true, force: true });
  });

  it('passes Redocly’s recommended rules with no error and no warning', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-openapi-'));
    try {
      fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
      // The repository's config and its one documented exception, whose keys name the file beside them.
      for (const file of ['redocly.yaml', '.redocly.lint-ignore.yaml']) fs.copyFileSync(file, path.join(dir, file));
      const cli = path.resolve('node_modules/@redocly/cli/bin/cli.js');
      // Lint exits 1 when it finds errors: the report is read either way.
      const run = await promisify(execFile)(process.execPath, [cli, 'lint', 'openapi.json', '--format', 'json', '--max-problems', '1000'], {
        cwd: dir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 64 * 1024 * 1024,
      }).catch((err: { stdout: string }) => err);
      const { totals, problems } = JSON.parse(run.stdout) as {
        totals: { ignored: number };
        problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
      };
      expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
      // The exception is still needed: a fixed path would leave a stale entry in the ignore file.
      expect(totals.ignored).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('names every operation once, and says who may call it', () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(100);
    const ids = all.map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const byKey = Object.fromEntries(all.map(({ key, op }) => [key, op]));
    expect(byKey['GET /v1/game/{id}/status']!.operationId).toBe('getGameByIdStatus');
    expect(byKey['GET /v1/user']!.security).toEqual([{ bearer: [] }]);
    expect(byKey['GET /v1/definition/game/list']!.security).toEqual([{}, { bearer: [] }]);
    expect(byKey['GET /v1/pricing']!.security).toEqual([{}, { bearer: [] }]);
    expect(byKey['GET /_content/navigation']!.security).toEqual([]);
    expect(byKey['POST /v1/payment/stripe/webhook']!.security).toEqual([]);
    expect(byKey['DELETE /v1/internal/game/stop/{id}']!.security).toEqual([{ internalToken: [] }]);
    for (const { op } of all) expect(op.security).toBeDefined();
  });

  it('declares the problem+json errors each call can answer, its success codes and media types', () => {
    const byKey = Object.fromEntries(operations().map(({ key, op }) => [key, op]));
    for (const { key, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        expect(response.content, `${key} ${status}`).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
      }
      expect(Object.keys(op.responses), key).toContain('400');
    }
    const statuses = (key: string) => Object.keys(byKey[key]!.responses).map(Number);
    expect(statuses('GET /v1/user')).toEqual([200, 400, 401, 429, 500]);
    expect(statuses('POST /v1/promocode')).toEqual([201, 400, 401, 403, 409, 413, 415, 422, 429, 500]);
    expect(statuses('POST /v1/game/create')).toEqual(expect.arrayContaining([201, 402, 404]));
    for (const key of ['DELETE /v1/blocklist/{id}', 'DELETE /v1/friend/{friendId}', 'DELETE /v1/friend/group/{id}', 'DELETE /v1/friend/group/{id}/member', 'DELETE /v1/friend/group/{id}/member/pseudo']) {
      expect(statuses(key), key).toContain(204);
      expect(statuses(key), key).not.toContain(200);
    }
    const media = (key: string, status = '200') => Object.keys(byKey[key]!.responses[status]!.content ?? {});
    expect(media('GET /v1/user/notifications/stream')).toEqual(['text/event-stream']);
    expect(media('GET /v1/user/minecraft/{uuid}/head')).toEqual(['image/png']);
    expect(media('GET /v1/user/minecraft/{uuid}/skin')).toEqual(['image/png']);
    expect(media('GET /v1/purchase/invoice/{id}')).toEqual(['application/json', 'application/pdf']);
    expect(media('GET /v1/staff/invoices/{id}')).toEqual(['application/json', 'application/pdf']);
    expect(Object.keys((byKey['POST /v1/definition/game/{id}/image'] as { requestBody?: { content: object } }).requestBody!.content)).toEqual(['multipart/form-data']);
  });

  it('keeps only the schemas it uses', () => {
    const text = JSON.stringify(doc.paths);
    const unused = Object.keys(doc.components.schemas).filter((name) => !text.includes(`"#/components/schemas/${name}"`));
    expect(unused).toEqual([]);
  });

  it('names the content path so a generated client can call it', async () => {
    const item = doc.paths['/_content/query/{locale}/{path}']!.get!;
    expect(item.parameters!.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(['locale', 'path']);
    expect(doc.paths['/_content/list/{locale}/{path}']).toBeDefined();

    // The slashes of a nested path arrive encoded, as openapi-fetch sends them.
    const page = await t.app.inject({ url: fill('/_content/query/{locale}/{path}', { locale: 'fr', path: 'ranked/2027/spring-cup' }) });
    expect(page.raw.req.url).toContain('ranked%2F2027%2Fspring-cup');
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ path: '/ranked/2027/spring-cup', title: 'Coupe de printemps' });
    const list = await t.app.inject({ url: fill('/_content/list/{locale}/{path}', { locale: 'fr', path: 'ranked/2027' }) });
    expect(list.json()).toEqual([expect.objectContaining({ title: 'Coupe de printemps' })]);
  });

  it('catches an answer the document does not declare', async () => {
    const check = new OpenapiCheck();
    const inject = t.app.inject.bind(t.app);
    const res = await t.as('alice', { url: '/v1/user' });
    expect(await check.problem(inject, '/v1/user', res)).toBeNull();
    const as = (changes: object) => Object.assign(Object.create(res) as typeof res, changes);
    expect(await check.problem(inject, '/v1/user', as({ statusCode: 418 }))).toMatch(/does not declare this status/);
    expect(await check.problem(inject, '/v1/user', as({ json: () => ({ id: 42 }) }))).toMatch(/does not match the document/);
    expect(await check.problem(inject, '/v1/user', as({ headers: { 'content-type': 'text/html' } }))).toMatch(/not text\/html/);
  });
});
