import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema/index.ts';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: services take this so callers choose the boundary. */
export type Executor = Db | Tx;

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  /** PostgreSQL LISTEN: the callback gets every NOTIFY payload on the channel, from any replica. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** PGlite data folder; absent means in memory. */
  dataDir?: string | undefined;
  /** Start PGlite from a dump (a migrated snapshot in tests). */
  snapshot?: Blob | undefined;
  /** PostgreSQL schema to work in (tests give each test its own). */
  schemaName?: string | undefined;
  poolSize?: number | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options);
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.snapshot ? { loadDataDir: options.snapshot } : {}),
  });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async ping() {
      await client.query('select 1');
    },
    async listen(channel, onPayload) {
      const unlisten = await client.listen(channel, onPayload);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async migrate() {
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
    },
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const searchPath = options.schemaName ? `-c search_path=${options.schemaName}` : undefined;
  const clientConfig = { connectionString: url, ...(searchPath ? { options: searchPath } : {}) };
  const pool = new pg.Pool({ ...clientConfig, max: options.poolSize ?? 10 });
  // A broken idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  if (options.schemaName) await pool.query(`create schema if not exists "${options.schemaName}"`);
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;

  let closed = false;
  // One dedicated connection carries every LISTEN of this process.
  let listener: pg.Client | undefined;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  async function listenerClient(): Promise<pg.Client> {
    if (listener) return listener;
    const client = new pg.Client(clientConfig);
    client.on('error', () => {});
    client.on('notification', (msg) => {
      for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    await client.connect();
    listener = client;
    return client;
  }

  return {
    db,
    kind: 'postgres',
    async ping() {
      await pool.query('select 1');
    },
    async listen(channel, onPayload) {
      const client = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await client.query(`listen "${channel}"`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
      };
    },
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async migrate() {
      // The migrations' bookkeeping lives beside the tables (the connection's schema), so schemas
      // of one database never mistake each other's history for their own.
      const { rows } = await pool.query<{ schema: string }>('select current_schema() as schema');
      await migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder, migrationsSchema: options.schemaName ?? rows[0]!.schema });
    },
    async close() {
      if (closed) return;
      closed = true;
      await listener?.end().catch(() => {});
      listener = undefined;
      await pool.end();
    },
  };
}

