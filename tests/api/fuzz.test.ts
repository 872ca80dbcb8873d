import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp, type TestApp } from '../fixtures/app.ts';
import { catalogue, fund, userId } from '../fixtures/games.ts';
import { befriend } from '../fixtures/social.ts';

/**
 * Every operation of the OpenAPI document, sent malformed: wrong types, NUL characters, lone
 * surrogates, numbers too large to be numbers, 100 kB and 1 MB strings, in bodies, query strings
 * and paths. Not one may answer 5xx, and none may change the database.
 */

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  format?: string;
  pattern?: string;
  minLength?: number;
  minimum?: number;
  minItems?: number;
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}
interface Case {
  what: string;
  url: string;
  /** Raw JSON text (so it can hold 1e400), or undefined for no body. */
  body?: string;
}

const STAFF = 'boss';
const HUGE_NUMBER = '__HUGE_NUMBER__';
const huge = (n: number) => 'y'.repeat(n);
/** Malformed values of a body field; the field's own types (every branch of an anyOf: null for a nullable one) are left out of the wrong types. */
const badValues = (schema: Schema): Array<[string, unknown]> => {
  const types = [schema.type, ...(schema.anyOf ?? []).map((branch) => branch.type)].flat();
  const wrongTypes: Array<[string, unknown]> = (
    [
      ['null', null],
      ['boolean', true],
      ['integer', 12345],
      ['array', [2]],
      ['object', { a: 1 }],
      ['string', 'text'],
    ] as Array<[string, unknown]>
  ).filter(([type]) => !types.includes(type) && !(type === 'integer' && types.includes('number')));
  return [
    ...wrongTypes.map(([type, value]): [string, unknown] => [`a ${type}`, value]),
    ['a NUL character', 'a\u0000b'],
    ['a lone surrogate', '\ud800x'],
    ['a number too large', HUGE_NUMBER],
    ['a negative number', -1],
    ['a number past 32 bits', 2 ** 31],
    ['a 100 kB string', huge(100_000)],
    ['a 1 MB string', huge(1_000_000)],
  ];
};
const badQueryValues: Array<[string, string]> = [
  ['text', 'abc'],
  ['1e400', '1e400'],
  ['a 400-digit number', '9'.repeat(400)],
  ['Infinity', 'Infinity'],
  ['-1', '-1'],
  ['1.5', '1.5'],
  ['a NUL character', '%00'],
  ['invalid UTF-8', '%ED%A0%80'],
  ['a 100 kB string', huge(100_000)],
];
const badPathValues: Array<[string, string]> = [
  ['not an id', 'not-an-id'],
  ['a NUL character', 'a%00b'],
  ['invalid UTF-8', '%ED%A0%80'],
  ['a 400-digit number', '9'.repeat(400)],
  ['a 100 kB string', huge(100_000)],
  ['a path escape', '..%2F..%2Fpackage.json'],
  ['an unknown id', '00000000-0000-4000-8000-000000000000'],
];

/** Games, friends, groups and notifications of the staff user, so paths reach real records. */
async function world(t: TestApp) {
  const staff = { roles: ['staff', 'support'] };
  const offer = await catalogue(t);
  await fund(t, STAFF, 1000);
  const game = await t.as(STAFF, { ...staff, method: 'POST', url: '/v1/game/create', payload: { definitionId: offer.definitionId, packageId: offer.smallId, name: 'Fuzzed' } });
  await befriend(t, STAFF, 'pal');
  const group = await t.as(STAFF, { ...staff, method: 'POST', url: '/v1/friend/group', payload: { name: 'Crew' } });
  const notification = await t.as(STAFF, { ...staff, method: 'POST', url: '/v1/user/notification' });
  const linked = await t.as(STAFF, { ...staff, method: 'POST', url: '/v1/user/mcuuid', payload: { mcName: 'BossOfBlocks' } });
  const ids: Record<string, string> = {
    game: game.json().id,
    definition: offer.definitionId,
    package: offer.smallId,
    group: group.json().id,
    friend: await userId(t, 'pal'),
    notification: notification.json().id,
    minecraft: linked.json().mcUuid,
  };
  for (const [name, id] of Object.entries(ids)) if (typeof id !== 'string') throw new Error(`fixture ${name} missing`);
  return ids;
}

/** A real id for a path parameter, by the path it is in. */
function pathId(ids: Record<string, string>, path: string, name: string): string {
  if (name === 'locale') return 'fr';
  if (name === '*') return 'about';
  if (name === 'friendId') return ids.friend!;
  if (name === 'uuid') return path.includes('minecraft') ? ids.minecraft! : ids.notification!;
  if (path.startsWith('/v1/friend/group')) return ids.group!;
  if (path.startsWith('/v1/blocklist')) return ids.friend!;
  if (path.startsWith('/v1/definition') || path.startsWith('/v1/game/review')) return ids.definition!;
  return ids.game!;
}

function deref(doc: Document, schema: Schema): Schema {
  const name = schema.$ref?.replace('#/components/schemas/', '').replace(/#$/, '');
  return name ? deref(doc, doc.components.schemas[name]!) : schema;
}

/** A value the schema accepts (close enough: only one field is made bad at a time). */
function validValue(doc: Document, raw: Schema, name: string, ids: Record<string, string>): unknown {
  const schema = deref(doc, raw);
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return validValue(doc, schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0]!, name, ids);
  const type = [schema.type].flat()[0];
  if (type === 'object' || schema.properties) {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, sub]) => [key, validValue(doc, sub, key, ids)]));
  }
  if (type === 'array') return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => validValue(doc, schema.items ?? {}, name, ids));
  if (type === 'integer' || type === 'number') return Math.max(1, schema.minimum ?? 1) === 0 ? 1 : Math.max(schema.minimum ?? 1, 1);
  if (type === 'boolean') return true;
  if (schema.format === 'uuid') return { definitionId: ids.definition, packageId: ids.package, userId: ids.friend, groupId: ids.group }[name] ?? ids.game;
  if (schema.format === 'date-time') return new Date().toISOString();
  if (schema.pattern?.includes('A-Z]{3}')) return 'EUR';
  if (schema.pattern) return 'Steve_42';
  return 'x'.repeat(Math.max(3, schema.minLength ?? 1));
}

/** Every way to make one field of `body` bad, each with the path to the field. */
function bodyMutations(doc: Document, raw: Schema, base: unknown, at: string[] = []): Array<[string, unknown]> {
  const schema = deref(doc, raw);
  const out: Array<[string, unknown]> = [];
  const put = (value: unknown): unknown => {
    if (at.length === 0) return value;
    const copy = structuredClone(base) as Record<string, unknown>;
    let node = copy;
    for (const key of at.slice(0, -1)) node = node[key] as Record<string, unknown>;
    node[at.at(-1)!] = value;
    return copy;
  };
  if (at.length > 0) for (const [what, value] of badValues(schema)) out.push([`${at.join('.')} as ${what}`, put(value)]);
  let node = base as Record<string, unknown>;
  for (const key of at) node = node?.[key] as Record<string, unknown>;
  if (schema.properties && node && typeof node === 'object') {
    for (const key of Object.keys(schema.properties)) out.push(...bodyMutations(doc, schema.properties[key]!, base, [...at, key]));
  }
  const items = schema.items && deref(doc, schema.items);
  if (items && Array.isArray(node)) for (const [what, value] of badValues(items)) out.push([`${at.join('.')}[0] as ${what}`, put([value])]);
  return out;
}

function cases(doc: Document, path: string, op: Operation, ids: Record<string, string>): Case[] {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const fill = (override: Record<string, string> = {}) => path.replace(/\{([^}]+)\}/g, (_m, name: string) => override[name] ?? encodeURIComponent(pathId(ids, path, name)).replaceAll('%2F', '/'));
  // A valid query for the other parameters, so each bad one is the only reason to refuse.
  const validQuery = (except: string) =>
    queryParams.filter((p) => p.name !== except && (p as { required?: boolean }).required).map((p) => `${p.name}=${encodeURIComponent(String(validValue(doc, p.schema, p.name, ids)))}`);
  const schema = op.requestBody?.content['application/json']?.schema;
  const base = schema ? validValue(doc, schema, 'body', ids) : undefined;
  const withBody = (value: unknown) => (schema ? JSON.stringify(value).replace(`"${HUGE_NUMBER}"`, '1e400') : undefined);

  const out: Case[] = [];
  for (const p of pathParams) {
    for (const [what, value] of badPathValues) out.push({ what: `path ${p.name} as ${what}`, url: fill({ [p.name]: value }), body: withBody(base) });
  }
  for (const p of queryParams) {
    for (const [what, value] of badQueryValues) {
      out.push({ what: `query ${p.name} as ${what}`, url: `${fill()}?${[...validQuery(p.name), `${p.name}=${value}`].join('&')}`, body: withBody(base) });
    }
    out.push({ what: `query ${p.name} twice`, url: `${fill()}?${[...validQuery(p.name), `${p.name}=1`, `${p.name}=2`].join('&')}`, body: withBody(base) });
  }
  if (schema) {
    for (const [what, value] of bodyMutations(doc, schema, base)) out.push({ what: `body ${what}`, url: fill(), body: withBody(value) });
    out.push({ what: 'body with an unknown field', url: fill(), body: JSON.stringify({ ...(base as object), unknownField: 1 }) });
    for (const [what, raw] of [
      ['not JSON', '{"a":'],
      ['an array', '[]'],
      ['a string', '"text"'],
      ['null', 'null'],
      ['a number too large', '1e400'],
      ['nested 10 000 deep', '['.repeat(10_000) + ']'.repeat(10_000)],
    ]) {
      out.push({ what: `body as ${what}`, url: fill(), body: raw });
    }
  }
  return out;
}

/** A hash of every row of every table, to prove that nothing was written. */
async function fingerprint(t: TestApp): Promise<Record<string, string>> {
  const db = t.app.services.db;
  const rows = (r: unknown) => (r as { rows: Array<Record<string, string>> }).rows;
  const tables = rows(await db.execute(sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`));
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    // The embedded identity provider's sessions live beside; no /v1 call writes them.
    if (name!.startsWith('oidc_') || name === '__drizzle_migrations') continue;
    const [row] = rows(await db.execute(sql.raw(`select count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from "${name}" t`)));
    out[name!] = row!.h!;
  }
  return out;
}

describe('malformed requests to every operation', () => {
  const t = useTestApp({ RATE_LIMIT_API_PER_MINUTE: '10000000', INTERNAL_TOKEN: 'internal-token-for-fuzzing-0123' });

  it('never answer 5xx and never change the database', async () => {
    const ids = await world(t.current);
    const doc = (await t.current.app.inject({ url: '/v1/openapi.json' })).json() as Document;
    const token = await t.current.token(STAFF, { roles: ['staff', 'support'] });
    const failures: string[] = [];
    let sent = 0;
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        // The event stream never ends and takes no input but its headers.
        if (path.endsWith('/notifications/stream')) continue;
        const list = cases(doc, path, op, ids);
        if (list.length === 0) continue;
        operations++;
        const before = await fingerprint(t.current);
        for (const c of list) {
          const res = await t.current.app.inject({
            method: method.toUpperCase() as 'GET',
            url: c.url,
            headers: {
              authorization: `Bearer ${token}`,
              'x-internal-token': 'internal-token-for-fuzzing-0123',
              ...(c.body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(c.body === undefined ? {} : { payload: c.body }),
          });
          sent++;
          if (res.statusCode >= 500) failures.push(`${method.toUpperCase()} ${path} with ${c.what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
        const after = await fingerprint(t.current);
        const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
        if (changed.length) failures.push(`${method.toUpperCase()} ${path}: malformed requests changed ${changed.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    // The document lists what the API serves: a sanity floor, so an empty document cannot pass.
    expect(operations).toBeGreaterThan(45);
    expect(sent).toBeGreaterThan(1500);
  }, 300_000);
});
