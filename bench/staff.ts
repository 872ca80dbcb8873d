import pg from 'pg';
import { percentile } from './load.ts';
import { startServer, type BenchServer } from './server.ts';
import { createDatabase } from '../tests/fixtures/pg-database.ts';

/**
 * The back office's lists on a big ledger: the real server on PostgreSQL (a database made for the
 * run and dropped after it), 100 000 users (half with a Minecraft name) and 1 000 000 ledger rows
 * written with generate_series, then timed through the HTTP API with a staff token, one request
 * at a time: the transactions list's first page, page 5 000, filtered by user and by kind, and the
 * user search by a prefix of the name.
 */
export interface StaffListFigures {
  users: number;
  ledgerRows: number;
  fillSeconds: number;
  /** What the unfiltered list answers as totalElements (an estimate past 10 000 rows). */
  ledgerTotalShown: number;
  lists: Record<string, { p50Ms: number; p95Ms: number; requests: number }>;
}

export const STAFF_TARGETS_MS = { transactionsFirstPage: 150, transactionsPage5000: 150, transactionsByUser: 150, transactionsByKind: 150, userSearchByName: 100 } as const;

const USERS = 100_000;
const LEDGER_ROWS = 1_000_000;
const REQUESTS = 200;
const WARMUP = 20;
/** Names are three syllables and a number: "kalomi_42"; a 2 to 4 letter prefix finds tens to thousands. */
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'to', 'zen', 'bel', 'dor', 'fi', 'gar', 'hu', 'jin', 'kel', 'mar', 'nor', 'pel', 'qui', 'sar', 'tor', 'vy'];
const KINDS = ['ADMIN_ADJUSTMENT', 'PURCHASE', 'SUBSCRIPTION', 'PROMO_BONUS', 'GAME_CHARGE', 'GAME_RENEWAL', 'REFUND'];

/** The id of bench user `i` (1-based), so ledger rows can name their user without a lookup. */
const userIdSql = (i: string) => `('00000000-0000-4000-8000-' || lpad(to_hex(${i}), 12, '0'))::uuid`;
const userId = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

async function fill(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Neither the change notices (a NOTIFY per user and balance row) nor foreign key checks for bench rows.
    await client.query('set session_replication_role = replica');
    const syllables = `array[${SYLLABLES.map((s) => `'${s}'`).join(',')}]`;
    const n = SYLLABLES.length;
    await client.query(`
      insert into users (id, subject, name, email, roles, created_at)
      select ${userIdSql('i')}, 'bench|' || i,
             name, name || i || '@example.com', '{}', now() - make_interval(mins => i)
      from (select i, (${syllables})[1 + i % ${n}] || (${syllables})[1 + (i / ${n}) % ${n}] || (${syllables})[1 + (i / ${n * n}) % ${n}] || '_' || (i % 97) as name
            from generate_series(1, ${USERS}) i) u`);
    // Every other user linked a Minecraft account, named from the same syllables in another order.
    await client.query(`
      insert into minecraft_profiles (uuid, name, name_key, name_expires_at)
      select ('10000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, name, lower(name), now() + interval '1 day'
      from (select i, initcap((${syllables})[1 + (i / 7) % ${n}]) || (${syllables})[1 + (i / 3) % ${n}] || '_' || i as name
            from generate_series(2, ${USERS}, 2) i) p`);
    await client.query(
      `update users set mc_uuid = ('10000000-0000-4000-8000-' || substr(id::text, 25))::uuid where subject like 'bench|%' and right(id::text, 1) in ('0','2','4','6','8','a','c','e')`,
    );
    const perUser = LEDGER_ROWS / USERS;
    await client.query(`
      insert into ledger_entries (user_id, amount, balance_after, account_seq, kind, reason_key, reason_params, created_at)
      select ${userIdSql(`1 + i % ${USERS}`)}, ((i::bigint * 7919) % 2000)::int - 500, ((i::bigint * 104729) % 100000)::int, 1 + i / ${USERS},
             (array[${KINDS.map((k) => `'${k}'`).join(',')}])[1 + i % ${KINDS.length}], 'text', jsonb_build_object('text', 'Bench entry ' || i),
             now() - make_interval(secs => ${LEDGER_ROWS} - i)
      from generate_series(0, ${LEDGER_ROWS - 1}) i`);
    await client.query(`
      insert into credit_accounts (user_id, balance, entries)
      select ${userIdSql('i')}, ((i::bigint * 104729) % 100000)::int, ${perUser} from generate_series(1, ${USERS}) i`);
    // Fresh statistics, and a visibility map so the ledger's page ids come from its indexes alone.
    await client.query('vacuum analyze users, minecraft_profiles, ledger_entries, credit_accounts');
  } finally {
    await client.end();
  }
}

async function timed(server: BenchServer, token: string, url: () => string): Promise<{ p50Ms: number; p95Ms: number; requests: number }> {
  const once = async () => {
    const started = performance.now();
    const res = await fetch(`${server.origin}${url()}`, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${url()} answered ${res.status}: ${body}`);
    return performance.now() - started;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 50), p95Ms: percentile(times, 95), requests: REQUESTS };
}

export async function staffListsBench(adminUrl = process.env.STAFF_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'): Promise<StaffListFigures> {
  const database = await createDatabase(adminUrl, 'bench_staff');
  let server: BenchServer | undefined;
  try {
    // The server migrates the new database (and seeds its three accounts) before it answers.
    server = await startServer({ DATABASE_URL: database.url });
    const filled = performance.now();
    await fill(database.url);
    const fillSeconds = (performance.now() - filled) / 1000;
    const token = server.token('bench_staff', ['staff']);
    const random = (n: number) => Math.floor(Math.random() * n);
    const prefix = () => {
      const syllables = 1 + random(2);
      return Array.from({ length: syllables }, () => SYLLABLES[random(SYLLABLES.length)]).join('');
    };
    const first = await fetch(`${server.origin}/v1/staff/transactions`, { headers: { authorization: `Bearer ${token}` } });
    const { totalElements } = (await first.json()) as { totalElements: number };
    const lists = {
      transactionsFirstPage: await timed(server, token, () => '/v1/staff/transactions'),
      transactionsPage5000: await timed(server, token, () => '/v1/staff/transactions?page=5000&size=20'),
      transactionsByUser: await timed(server, token, () => `/v1/staff/transactions?userId=${userId(1 + random(USERS))}`),
      transactionsByKind: await timed(server, token, () => `/v1/staff/transactions?kind=${KINDS[random(KINDS.length)]}`),
      userSearchByName: await timed(server, token, () => `/v1/staff/users?q=${prefix()}`),
      // Without targets, for the record.
      transactionsByAmount: await timed(server, token, () => '/v1/staff/transactions?sort=amount,desc'),
      userSearchByMinecraftName: await timed(server, token, () => `/v1/staff/users?q=${SYLLABLES[random(SYLLABLES.length)]}${SYLLABLES[random(SYLLABLES.length)]}_`),
      usersByBalance: await timed(server, token, () => '/v1/staff/users?sort=balance,desc'),
    };
    return { users: USERS, ledgerRows: LEDGER_ROWS, fillSeconds, ledgerTotalShown: totalElements, lists };
  } finally {
    await server?.stop();
    await database.drop();
  }
}
