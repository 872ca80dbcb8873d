import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { creditAccounts, ledgerEntries } from '../src/server/db/schema/credits.ts';
import { games } from '../src/server/db/schema/games.ts';
import { gamePayments } from '../src/server/db/schema/renewals.ts';
import { loadOrCreateKeys } from '../src/server/identity/keys.ts';
import { signAccessToken } from '../src/server/identity/tokens.ts';
import { CHANNEL } from '../src/server/modules/notifications/service.ts';
import { MemoryDriver } from '../tests/fixtures/memory-driver.ts';
import { percentile } from './load.ts';

/**
 * 1 000 game renewals coming due at the same instant, in the app as it runs (its renewals loop,
 * the in-memory game driver, PGlite in a data folder or PostgreSQL with DATABASE_URL), on a clock
 * that is frozen while the games are bought, so every period ends at the same instant, then flows
 * at real speed from two seconds before that instant. Owners come in four kinds, two games each:
 * auto-renew with credits for both (both PAID), for one (one PAID, one EXPIRED), for none (both
 * EXPIRED), and no auto-renew with credits (both EXPIRED). A game's time is from the due instant
 * to the commit of its renewal or expiry, seen as the owner's notice arriving (NOTIFY at commit).
 * Then each outcome, balance and ledger is checked.
 */
export interface RenewalFigures {
  games: number;
  paid: number;
  expired: number;
  /** Games with no outcome when the bench gave up waiting. */
  unsettled: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Empty when every outcome, balance and ledger row is as expected. */
  problems: string[];
}

const DAY_MS = 24 * 3600_000;
const PRICE = 100;
/** Renewal credits per owner of each kind, and whether its games auto-renew. */
const KINDS = [
  { funds: 2 * PRICE, autoRenew: true, paid: 2 },
  { funds: PRICE, autoRenew: true, paid: 1 },
  { funds: 0, autoRenew: true, paid: 0 },
  { funds: 2 * PRICE, autoRenew: false, paid: 0 },
] as const;

export async function renewalsBench(total = 1000, { timeoutMs = 120_000 } = {}): Promise<RenewalFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-bench-renewals-'));
  const url = process.env.DATABASE_URL;
  const schemaName = `bench_renewals_${randomBytes(4).toString('hex')}`;
  const database = url ? await openDatabase({ url, schemaName }) : await openDatabase({ dataDir: path.join(dataDir, 'db') });
  const config = loadConfig({ DATA_DIR: dataDir, WEB_DIR: path.join(dataDir, 'no-web'), LOG_LEVEL: 'warn', PUBLIC_URL: 'http://localhost', RATE_LIMIT_API_PER_MINUTE: '10000000' });
  await database.migrate();
  const keys = await loadOrCreateKeys(config.oidc.keysFile);
  // Frozen while games are bought; then real time shifted to just before their periods end.
  let frozen: Date | undefined = new Date();
  let offsetMs = 0;
  const clock = () => frozen ?? new Date(Date.now() + offsetMs);
  const app = await buildApp({ config, database, logger: false, runtime: new MemoryDriver().runtime, clock });
  const { services } = app;
  const as = async (user: string, method: 'GET' | 'POST', url: string, payload?: object, roles: string[] = []) => {
    const res = await app.inject({ method, url, headers: { authorization: `Bearer ${await signAccessToken(config, keys, { username: user, roles })}` }, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.json();
  };
  let unlisten: (() => Promise<void>) | undefined;
  try {
    const definition = await as('bench_staff', 'POST', '/v1/definition/game', { name: { fr: 'Banc', en: 'Bench' }, description: { fr: 'Banc', en: 'Bench' }, version: '1.21.4', published: true }, [
      'staff',
    ]);
    const pkg = await as(
      'bench_staff',
      'POST',
      '/v1/definition/game/package',
      { definitionId: definition.id, name: { fr: 'Mois', en: 'Month' }, ramMb: 1024, maxPlayers: 10, periodDays: 30, priceCredits: PRICE },
      ['staff'],
    );

    const owners = Array.from({ length: Math.ceil(total / 2) }, (_, i) => ({ name: `renewal_owner_${i}`, kind: KINDS[i % KINDS.length]!, id: '', games: 0 }));
    const gameOf = new Map<string, { owner: (typeof owners)[number]; name: string }>();
    const idOfName = new Map<string, string>();
    for (const owner of owners) {
      owner.id = (await as(owner.name, 'GET', '/v1/user')).id;
      const gamesHere = Math.min(2, total - gameOf.size);
      owner.games = gamesHere;
      await services.credits.apply(services.db, { userId: owner.id, amount: gamesHere * PRICE, kind: 'ADMIN_ADJUSTMENT', reason: { key: 'text', params: { text: 'Bench: first periods' } } });
      for (let g = 0; g < gamesHere; g++) {
        const name = `bench ${String(gameOf.size).padStart(4, '0')}`;
        const game = await as(owner.name, 'POST', '/v1/game/create', { definitionId: definition.id, packageId: pkg.id, name, autoRenew: owner.kind.autoRenew });
        gameOf.set(game.id, { owner, name });
        idOfName.set(name, game.id);
      }
    }
    const due = new Date(frozen.getTime() + 30 * DAY_MS);

    // The renewals open RENEWAL_NOTICE_DAYS before the end (and the owners are told): not measured.
    frozen = new Date(due.getTime() - config.renewals.noticeDays * DAY_MS + 60_000);
    const pending = async () => (await services.db.select({ n: count() }).from(gamePayments).where(eq(gamePayments.status, 'PENDING')))[0]!.n;
    while ((await pending()) < total) await services.renewals.tick();
    for (const owner of owners) {
      if (owner.kind.funds > 0)
        await services.credits.apply(services.db, { userId: owner.id, amount: owner.kind.funds, kind: 'ADMIN_ADJUSTMENT', reason: { key: 'text', params: { text: 'Bench: renewals' } } });
    }

    // Each game's outcome as its owner hears of it: the notice is written in the same transaction.
    const settled = new Map<string, { outcome: 'PAID' | 'EXPIRED'; at: number }>();
    let allSettled: () => void = () => {};
    const done = new Promise<void>((resolve) => (allSettled = resolve));
    unlisten = await database.listen(CHANNEL, (payload) => {
      const at = performance.now();
      const { data } = JSON.parse(payload) as { data: { key: string; params: { name?: string }; link: string | null } };
      const renewed = data.key.startsWith('renewal.paid') ? /^\/dashboard\/game\/(.+)$/.exec(data.link ?? '') : null;
      const expired = data.key === 'renewal.expired' ? data.params.name : undefined;
      const id = renewed ? renewed[1]! : expired ? idOfName.get(expired) : undefined;
      if (!id || settled.has(id)) return;
      settled.set(id, { outcome: renewed ? 'PAID' : 'EXPIRED', at });
      if (settled.size === total) allSettled();
    });

    // Two seconds before the due instant the clock flows again, and the loop is started afresh, as
    // in a process starting then: from there the app alone decides when its rounds run.
    offsetMs = due.getTime() - 2000 - Date.now();
    frozen = undefined;
    const dueAt = performance.now() + 2000;
    services.renewals.start();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, 2000 + timeoutMs)))]);
    clearTimeout(timer);
    await services.renewals.stop();

    const latencies = [...settled.values()].map((s) => s.at - dueAt).sort((a, b) => a - b);
    const problems = await check(services.db, owners, gameOf, settled);
    return {
      games: total,
      paid: [...settled.values()].filter((s) => s.outcome === 'PAID').length,
      expired: [...settled.values()].filter((s) => s.outcome === 'EXPIRED').length,
      unsettled: total - settled.size,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies.at(-1) ?? NaN,
      problems,
    };
  } finally {
    await unlisten?.();
    await app.close();
    if (url) await database.db.execute(sql.raw(`drop schema if exists "${schemaName}" cascade`));
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What the database says of each game and owner, against what each owner's kind should get. */
async function check(
  db: Awaited<ReturnType<typeof openDatabase>>['db'],
  owners: Array<{ id: string; name: string; kind: (typeof KINDS)[number]; games: number }>,
  gameOf: Map<string, { owner: { id: string } }>,
  settled: Map<string, { outcome: 'PAID' | 'EXPIRED' }>,
): Promise<string[]> {
  const problems: string[] = [];
  const rows = await db.select({ id: games.id, status: games.status, expiredAt: games.expiredAt }).from(games);
  const renewals = await db
    .select({ gameId: gamePayments.gameId, paid: sql<number>`count(*) filter (where ${gamePayments.status} = 'PAID')`.mapWith(Number) })
    .from(gamePayments)
    .groupBy(gamePayments.gameId);
  const debits = await db
    .select({ refId: ledgerEntries.refId, n: count(), total: sql<number>`sum(${ledgerEntries.amount})`.mapWith(Number) })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.kind, 'GAME_RENEWAL'))
    .groupBy(ledgerEntries.refId);
  const balances = await db.select({ userId: creditAccounts.userId, balance: creditAccounts.balance }).from(creditAccounts);
  const balanceOf = new Map(balances.map((b) => [b.userId, b.balance]));
  const paidOf = new Map(renewals.map((r) => [r.gameId, r.paid]));
  const debitOf = new Map(debits.map((d) => [d.refId, d]));
  const paidPerOwner = new Map<string, number>();
  for (const game of rows) {
    const owner = gameOf.get(game.id)?.owner;
    if (!owner) continue;
    // The first period (PAID at creation) and, when renewed, the second.
    const renewed = (paidOf.get(game.id) ?? 0) - 1;
    const debit = debitOf.get(game.id);
    const outcome = settled.get(game.id)?.outcome;
    if (renewed === 1) paidPerOwner.set(owner.id, (paidPerOwner.get(owner.id) ?? 0) + 1);
    if (renewed === 1 && (game.expiredAt !== null || debit?.n !== 1 || debit.total !== -PRICE || outcome !== 'PAID'))
      problems.push(`game ${game.id}: paid, but ${game.status}, ${debit?.n ?? 0} debits, told ${outcome}`);
    if (renewed === 0 && (game.status !== 'EXPIRED' || debit !== undefined || outcome !== 'EXPIRED'))
      problems.push(`game ${game.id}: unpaid, but ${game.status}, ${debit?.n ?? 0} debits, told ${outcome}`);
    if (renewed !== 0 && renewed !== 1) problems.push(`game ${game.id}: ${renewed} renewals paid`);
  }
  for (const owner of owners) {
    const paid = paidPerOwner.get(owner.id) ?? 0;
    const expected = Math.min(owner.kind.paid, owner.games);
    if (paid !== expected) problems.push(`${owner.name}: ${paid} renewals paid, ${expected} expected`);
    const balance = balanceOf.get(owner.id) ?? 0;
    if (balance !== owner.kind.funds - paid * PRICE) problems.push(`${owner.name}: balance ${balance}, ${owner.kind.funds - paid * PRICE} expected`);
  }
  return problems;
}
