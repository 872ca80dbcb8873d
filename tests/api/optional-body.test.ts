import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../fixtures/app.ts';
import { buyGame, runGame } from '../fixtures/games.ts';

type Schema = { $ref?: string; type?: string; required?: string[]; minProperties?: number };
type Operation = { requestBody?: { content?: Record<string, { schema?: Schema }> } };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

/** The operations whose JSON body is an object with no required field: they must take no body. */
function optionalBodies(doc: Document): Array<{ method: string; path: string }> {
  const resolve = (schema: Schema): Schema => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!]! : schema);
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, op]) => {
      const raw = op.requestBody?.content?.['application/json']?.schema;
      const schema = raw && resolve(raw);
      return schema?.type === 'object' && !schema.required?.length && !schema.minProperties ? [{ method: method.toUpperCase(), path }] : [];
    }),
  );
}

describe('a call whose body fields are all optional', { timeout: 180_000 }, () => {
  const t = useTestApp();

  it('takes no body, or an empty one, as an empty object: a backup without a body starts', async () => {
    const { gameId } = await buyGame(t.current);
    await runGame(t.current, gameId);
    const noBody = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups` });
    expect(noBody.statusCode, noBody.body).toBe(202);
    await t.current.app.services.backups.idle();
    const empty = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, headers: { 'content-type': 'application/json' }, payload: '' });
    expect(empty.statusCode, empty.body).toBe(202);
    await t.current.app.services.backups.idle();
    // A body that is there is still checked.
    const bad = await t.current.as('alice', { method: 'POST', url: `/v1/game/${gameId}/backups`, payload: { unknown: 1 } });
    expect(bad.statusCode).toBe(400);
    // A call that needs a body still says so.
    const patch = await t.current.as('alice', { method: 'PATCH', url: `/v1/game/${gameId}/backups/${randomUUID()}` });
    expect(patch.statusCode).toBe(400);
  });

  it('is never refused for its missing body, on any route', async () => {
    const doc = (await t.current.app.inject({ url: '/v1/openapi.json' })).json() as Document;
    const routes = optionalBodies(doc);
    expect(routes).toContainEqual({ method: 'POST', path: '/v1/game/{id}/backups' });
    const token = await t.current.token('boss', { roles: ['staff', 'support'] });
    const refused: string[] = [];
    for (const { method, path } of routes) {
      const url = path.replace(/\{\w+\}/g, () => randomUUID());
      for (const headers of [{}, { 'content-type': 'application/json' }]) {
        const res = await t.current.app.inject({ method: method as 'POST', url, headers: { authorization: `Bearer ${token}`, ...headers }, ...('content-type' in headers ? { payload: '' } : {}) });
        const body = res.statusCode === 400 ? (res.json() as { code: string; errors?: Array<{ field: string }> }) : undefined;
        if (body && (body.code === 'request.emptyJsonBody' || body.errors?.some((e) => e.field === 'body'))) refused.push(`${method} ${path}: ${res.body}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
