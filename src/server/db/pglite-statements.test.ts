import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPreparedStatements } from './pglite-statements.ts';

describe('PGlite with prepared statements', () => {
  let raw: PGlite;
  let client: PGlite;
  const prepared = async () => (await raw.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((r) => r.statement);

  beforeAll(async () => {
    raw = await PGlite.create();
    client = withPreparedStatements(raw);
    await raw.exec('create table t (id text primary key, n int, at timestamptz, doc jsonb, tags text[], ok boolean, big bigint, bin bytea)');
  });
  afterAll(() => raw.close());

  const insert = 'insert into t (id, n, at, doc, tags, ok, big, bin) values ($1, $2, $3, $4, $5, $6, $7, $8) returning *';
  const values = (id: string) => [id, 7, new Date('2026-01-02T03:04:05.000Z'), { a: [1, 'two'] }, ['x', 'y "quoted"', null], true, 2n ** 40n, new Uint8Array([0, 255])];

  it('answers what PGlite answers, whether the text is prepared yet or not', async () => {
    const answers = [];
    for (const id of ['a', 'b', 'c']) answers.push((await client.query(insert, values(id))).rows[0]);
    const expected = (await raw.query(insert, values('d'))).rows[0] as Record<string, unknown>;
    for (const [i, answer] of answers.entries()) expect(answer).toEqual({ ...expected, id: ['a', 'b', 'c'][i] });
    expect(expected).toMatchObject({ n: 7, at: new Date('2026-01-02T03:04:05.000Z'), doc: { a: [1, 'two'] }, tags: ['x', 'y "quoted"', null], ok: true, big: 2 ** 40 });
    // Parsers given with the query win over PGlite's, and rows come as arrays when asked.
    const options = { rowMode: 'array' as const, parsers: { 1184: (v: string) => `raw ${v}` } };
    for (let i = 0; i < 3; i++) {
      expect((await client.query('select id, at from t where id = $1', ['a'], options)).rows).toEqual([['a', 'raw 2026-01-02 03:04:05+00']]);
    }
  });

  it('prepares a text from its second run, not a text run once', async () => {
    await client.query('select $1::int + 1 as once', [1]);
    expect(await prepared()).not.toContain('select $1::int + 1 as once');
    await client.query('select $1::int + 2 as twice', [1]);
    await client.query('select $1::int + 2 as twice', [1]);
    expect(await prepared()).toContain('select $1::int + 2 as twice');
  });

  it('throws PostgreSQL errors with their code and query, and keeps working after them', async () => {
    for (let i = 0; i < 3; i++) {
      await expect(client.query(insert, values('a'))).rejects.toMatchObject({ code: '23505', query: insert });
    }
    expect((await client.query<{ n: number }>('select count(*)::int as n from t')).rows).toEqual([{ n: 4 }]);
  });

  it('runs queries in the transaction, rolled back on a throw, and others after it', async () => {
    const bump = 'update t set n = n + $1 where id = $2 returning n';
    await expect(
      client.transaction(async (tx) => {
        for (let i = 0; i < 3; i++) await tx.query(bump, [1, 'a']);
        expect((await tx.query<{ n: number }>('select n from t where id = $1', ['a'])).rows).toEqual([{ n: 10 }]);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    // A query sent while a transaction is open runs after it, and sees what it committed.
    let outside: Promise<unknown> | undefined;
    await client.transaction(async (tx) => {
      await tx.query(bump, [1, 'a']);
      outside = client.query('select n from t where id = $1', ['a']).then((r) => r.rows);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.query(bump, [1, 'a']);
    });
    expect(await outside).toEqual([{ n: 9 }]);
    expect((await client.query<{ n: number }>('select n from t where id = $1', ['a'])).rows).toEqual([{ n: 9 }]);
  });

  it('delivers notifications sent by prepared queries, at commit', async () => {
    const got: string[] = [];
    await client.listen('things', (payload) => got.push(payload));
    for (const payload of ['one', 'two']) await client.query('select pg_notify($1, $2)', ['things', payload]);
    await client.transaction(async (tx) => {
      await tx.query('select pg_notify($1, $2)', ['things', 'three']);
      await tx.query('select pg_notify($1, $2)', ['things', 'four']);
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(got).toEqual(['one', 'two', 'three', 'four']);
  });
});
