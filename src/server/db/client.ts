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
import { withPreparedStatements } from './pglite-statements.ts';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: services take this so callers choose the boundary. */
export type Executor = Db | Tx;

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Where the database reports trouble it recovers from on its own (the app's logger). */
interface DatabaseLog {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

interface ListenOptions {
  /**
   * Called once the LISTEN connection is back after a drop: NOTIFYs sent meanwhile were lost, so
   * catch up from the tables. `since` is when the drop was noticed (this process's clock).
   */
  onReconnect?: (info: { since: Date }) => void | Promise<void>;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  /** PostgreSQL LISTEN: the callback gets every NOTIFY payload on the channel, from any replica. */
  listen(channel: string, onPayload: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  migrate(): Promise<void>;
  /**
   * Runs `work` while no other process does work under this lock: replicas starting together on
   * a new database would otherwise run its migrations and its seed twice at once. PostgreSQL: a
   * session advisory lock held by a connection of its own; PGlite has one process.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  /** Reports to `log` from now on (the database is opened before the app and its logger). */
  setLog(log: DatabaseLog): void;
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
  log?: DatabaseLog | undefined;
}

/** Back-off between attempts to reopen a lost LISTEN connection. */
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;
/** The advisory lock key of `exclusively` (any fixed number; "BlockHost" in ASCII, cut to 8 bytes). */
const STARTUP_LOCK = '4786322976780349299';

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options);
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  if (options.dataDir) fs.mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.snapshot ? { loadDataDir: options.snapshot } : {}),
  });
  const db = drizzlePglite({ client: withPreparedStatements(client), schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async ping() {
      await client.query('select 1');
    },
    // One embedded engine, no connection to lose: `onReconnect` is never called.
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
    exclusively: (work) => work(),
    setLog() {},
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
  let log = options.log;
  // One dedicated connection carries every LISTEN of this process. When it drops, it is opened
  // again with back-off and LISTENs again; subscribers are told, since NOTIFYs meanwhile are lost.
  const listenerConfig = {
    ...clientConfig,
    // Findable in pg_stat_activity; a test schema is named so each test finds its own.
    application_name: `blockhost-listener${options.schemaName ? ` ${options.schemaName}` : ''}`,
    // A peer that vanishes without a reset is noticed in minutes, not at the OS's two hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
  interface Subscriber {
    onPayload: (payload: string) => void;
    onReconnect: ListenOptions['onReconnect'];
  }
  const handlers = new Map<string, Set<Subscriber>>();
  let listener: pg.Client | undefined;
  /** Channels LISTENed on the current `listener`. */
  let listening = new Set<string>();
  /** The first connection; once it is made, losses are the reconnect's business. */
  let connecting: Promise<void> | undefined;
  /** Set while the connection is lost: when it was noticed, and the pending retry. */
  let lostAt: Date | undefined;
  let retry: NodeJS.Timeout | undefined;
  let retryMs = RETRY_MIN_MS;
  /** The client of an attempt in progress, so close() can end it. */
  let attempt: pg.Client | undefined;

  /** Opens a listener connection and LISTENs on every channel that has handlers. */
  async function openListener(): Promise<{ client: pg.Client; channels: Set<string> }> {
    const client = new pg.Client(listenerConfig);
    attempt = client;
    const channels = new Set<string>();
    // Until it is the listener, an error only fails the attempt (its promise rejects).
    client.on('error', (err) => lost(client, err));
    client.on('end', () => lost(client));
    client.on('notification', (msg) => {
      for (const h of handlers.get(msg.channel) ?? []) h.onPayload(msg.payload ?? '');
    });
    try {
      await client.connect();
      // Channels subscribed to meanwhile are `adopt`'s.
      for (const [channel, set] of [...handlers]) {
        if (set.size === 0) continue;
        await client.query(`listen "${channel}"`);
        channels.add(channel);
      }
      if (closed) throw new Error('database closed');
    } catch (err) {
      // Not awaited: ending a connection that failed half-way must not stall the next attempt.
      void client.end().catch(() => {});
      throw err;
    } finally {
      if (attempt === client) attempt = undefined;
    }
    return { client, channels };
  }

  /** LISTENs on `channel` over the current listener; a refusal means trouble: start over. */
  async function listenOn(client: pg.Client, channel: string) {
    try {
      await client.query(`listen "${channel}"`);
      if (client === listener) listening.add(channel);
    } catch (err) {
      lost(client, err);
    }
  }

  /** Makes an opened connection the listener, with a LISTEN for any channel added since it was opened. */
  function adopt({ client, channels }: { client: pg.Client; channels: Set<string> }) {
    listener = client;
    listening = channels;
    for (const [channel, set] of handlers) if (set.size > 0 && !channels.has(channel)) void listenOn(client, channel);
  }

  function lost(client: pg.Client, err?: unknown) {
    if (client !== listener || closed) return;
    listener = undefined;
    listening = new Set();
    lostAt = new Date();
    log?.warn({ err }, 'LISTEN connection lost; reconnecting');
    // After an error the socket may still be half open: make sure it is gone.
    void client.end().catch(() => {});
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (closed || retry) return;
    // unref: a pending retry must not keep a finished process alive.
    retry = setTimeout(() => void reconnect(), retryMs).unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }

  async function reconnect() {
    retry = undefined;
    let opened: { client: pg.Client; channels: Set<string> };
    try {
      opened = await openListener();
    } catch (err) {
      if (closed) return;
      log?.warn({ err, retryInMs: retryMs }, 'LISTEN reconnect failed');
      scheduleReconnect();
      return;
    }
    const since = lostAt ?? new Date();
    adopt(opened);
    lostAt = undefined;
    retryMs = RETRY_MIN_MS;
    log?.info?.({ since }, 'LISTEN connection restored');
    const failed = (err: unknown) => log?.warn({ err }, 'catching up after a LISTEN reconnect failed');
    for (const set of handlers.values()) {
      for (const { onReconnect } of set) {
        if (!onReconnect) continue;
        try {
          void Promise.resolve(onReconnect({ since })).catch(failed);
        } catch (err) {
          failed(err);
        }
      }
    }
  }

  /** The first connection, shared by concurrent callers; its failure is theirs (the app does not start). */
  function firstListener(): Promise<void> {
    connecting ??= openListener().then(adopt, (err: unknown) => {
      connecting = undefined;
      throw err;
    });
    return connecting;
  }

  return {
    db,
    kind: 'postgres',
    async ping() {
      await pool.query('select 1');
    },
    async listen(channel, onPayload, listenOptions = {}) {
      if (closed) throw new Error('database closed');
      const subscriber: Subscriber = { onPayload, onReconnect: listenOptions.onReconnect };
      let set = handlers.get(channel);
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(subscriber);
      const unlisten = async () => {
        set.delete(subscriber);
      };
      try {
        await firstListener();
      } catch (err) {
        await unlisten();
        throw err;
      }
      // Without a listener a reconnect is under way, and it LISTENs on every channel with handlers.
      if (listener && !listening.has(channel)) await listenOn(listener, channel);
      return unlisten;
    },
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    setLog(next) {
      log = next;
    },
    async migrate() {
      // The migrations' bookkeeping lives beside the tables (the connection's schema), so schemas
      // of one database never mistake each other's history for their own.
      const { rows } = await pool.query<{ schema: string }>('select current_schema() as schema');
      await migratePg(drizzlePg({ client: pool, schema }), { migrationsFolder, migrationsSchema: options.schemaName ?? rows[0]!.schema });
    },
    async exclusively(work) {
      const holder = await pool.connect();
      try {
        // Released with the session too, should this process die holding it.
        await holder.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
        try {
          return await work();
        } finally {
          await holder.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]);
        }
      } finally {
        holder.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retry);
      retry = undefined;
      void attempt?.end().catch(() => {});
      await listener?.end().catch(() => {});
      listener = undefined;
      await pool.end();
    },
  };
}
