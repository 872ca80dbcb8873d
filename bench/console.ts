import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { loadOrCreateKeys } from '../src/server/identity/keys.ts';
import { signAccessToken } from '../src/server/identity/tokens.ts';
import { CONSOLE_LINE_EVENT, type ConsoleLine } from '../src/contract/console.ts';
import { LocalDriver, localConsoles } from '../src/runtime/local-driver.ts';
import type { Runtime } from '../src/runtime/index.ts';
import { MemoryDriver } from '../tests/fixtures/memory-driver.ts';
import { percentile } from './load.ts';

/**
 * A game's console, end to end with a real flying-squid server run by the local driver: the bench
 * has the server print a line (`say`, sent over RCON, which the server prints on its output) and
 * times it until it arrives on open console streams, read over HTTP and parsed as the web app
 * does. The time counts from the RCON command's sending, so it includes RCON and the server's own
 * handling: an upper bound of the line's way from the server's output to the browser. Once with
 * one open console, then with 100 consoles open on the same game, with the API's event-loop delay
 * meanwhile.
 */
export interface ConsoleFigures {
  one: { lines: number; p50Ms: number; p99Ms: number; maxMs: number };
  hundred: { streams: number; lines: number; deliveries: number; p50Ms: number; p99Ms: number; maxMs: number; loopDelayP99Ms: number };
}

/** A flood of printed lines against the same seconds without one, on one open console. */
export interface FloodFigures {
  printed: number;
  /** Lines the stream received, markers included, and what the markers counted. */
  received: number;
  counted: number;
  quietLoopDelayP99Ms: number;
  floodLoopDelayP99Ms: number;
}

const LINES = 200;
const SPACING_MS = 25;
const FLOOD_LINES = 10_000;

/** The API on PGlite with `runtime`, one game of 10 players, running; `close` ends it all. */
async function benchGame(dataDir: string, runtime: Runtime) {
  const { driver } = runtime;
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIR: path.join(dataDir, 'no-web'),
    LOG_LEVEL: 'warn',
    PUBLIC_URL: 'http://localhost',
    RATE_LIMIT_API_PER_MINUTE: '10000000',
    STREAMS_PER_USER: '1000',
  });
  const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
  await database.migrate();
  const keys = await loadOrCreateKeys(config.oidc.keysFile);
  const app = await buildApp({ config, database, logger: false, runtime });
  const token = (user: string, roles: string[] = []) => signAccessToken(config, keys, { username: user, roles });
  const as = async (user: string, method: 'GET' | 'POST', url: string, payload?: object, roles: string[] = []) => {
    const res = await app.inject({ method, url, headers: { authorization: `Bearer ${await token(user, roles)}` }, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.json();
  };
  const controller = new AbortController();
  const close = async () => {
    controller.abort();
    await app.close();
    await driver.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const staff = ['staff'];
    const definition = await as(
      'bench_staff',
      'POST',
      '/v1/definition/game',
      { name: { fr: 'Banc', en: 'Bench' }, description: { fr: 'Banc', en: 'Bench' }, version: '1.21.4', published: true },
      staff,
    );
    const pkg = await as(
      'bench_staff',
      'POST',
      '/v1/definition/game/package',
      { definitionId: definition.id, name: { fr: 'Mois', en: 'Month' }, ramMb: 1024, maxPlayers: 10, periodDays: 30, priceCredits: 0 },
      staff,
    );
    const gameId: string = (await as('console_owner', 'POST', '/v1/game/create', { definitionId: definition.id, packageId: pkg.id, name: 'Console bench' })).id;
    await as('console_owner', 'POST', `/v1/game/${gameId}/start`);
    const deadline = Date.now() + 120_000;
    while ((await as('console_owner', 'GET', `/v1/game/${gameId}`)).status !== 'RUNNING') {
      if (Date.now() > deadline) throw new Error('the game did not start in time');
      await new Promise((r) => setTimeout(r, 100));
    }
    const [spec] = (await app.services.games.runningSpecs()).filter((s) => s.id === gameId);
    const bearer = await token('console_owner');
    /** Opens a console stream on the game; `heard` gets each line. */
    const open = async (heard: (line: ConsoleLine) => void) => {
      // One user holds them all: the bench raises the streams a user may hold (10 by default).
      const res = await fetch(`http://127.0.0.1:${port}/v1/game/${gameId}/console/stream`, { headers: { authorization: `Bearer ${bearer}` }, signal: controller.signal });
      if (res.status !== 200) throw new Error(`console stream answered ${res.status}: ${await res.text()}`);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
          if (done) return;
          if (value.event === CONSOLE_LINE_EVENT) heard(JSON.parse(value.data) as ConsoleLine);
        }
      })();
    };
    return { spec: spec!, open, close };
  } catch (err) {
    await close();
    throw err;
  }
}

export async function consoleBench(): Promise<ConsoleFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-bench-console-'));
  const from = 46_000 + Math.floor(Math.random() * 900) * 10;
  const consoles = localConsoles(dataDir);
  const driver = new LocalDriver({ dataDir, host: '127.0.0.1', portRange: { from, to: from + 9 }, consoles });
  const { spec, open: openConsole, close } = await benchGame(dataDir, { driver, consoles });
  try {
    /** Opens a console stream; `arrived` hears each bench line's number and when it came. */
    const open = (arrived: (n: number, at: number) => void) =>
      openConsole((line) => {
        const match = /\[Server\] bench (\d+)$/.exec(line.text);
        if (match) arrived(Number(match[1]), performance.now());
      });

    /** Has the server print `count` lines from number `first`, and times their arrivals. */
    const round = async (first: number, count: number, streams: number) => {
      const sent = new Map<number, number>();
      const times: number[] = [];
      for (let s = 0; s < streams; s++) await open((n, at) => sent.has(n) && times.push(at - sent.get(n)!));
      // Each stream has sent its history: the bench's lines come after.
      await new Promise((r) => setTimeout(r, 500));
      for (let i = first; i < first + count; i++) {
        sent.set(i, performance.now());
        await driver.rcon(spec, `say bench ${i}`);
        await new Promise((r) => setTimeout(r, SPACING_MS));
      }
      const until = Date.now() + 30_000;
      while (times.length < count * streams && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      return times.sort((a, b) => a - b);
    };

    const one = await round(0, LINES, 1);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const hundred = await round(LINES, LINES / 2, 100);
    lag.disable();
    return {
      one: { lines: one.length, p50Ms: percentile(one, 50), p99Ms: percentile(one, 99), maxMs: one.at(-1) ?? NaN },
      hundred: {
        streams: 100,
        lines: LINES / 2,
        deliveries: hundred.length,
        p50Ms: percentile(hundred, 50),
        p99Ms: percentile(hundred, 99),
        maxMs: hundred.at(-1) ?? NaN,
        loopDelayP99Ms: lag.percentile(99) / 1e6,
      },
    };
  } finally {
    await close();
  }
}

/**
 * A server that prints 1 000 lines a second for 10 s, against the same 10 s printing nothing, with
 * one console open: the flood control collapses what passes its rate into "n lines omitted"
 * markers, so the API's event loop stays as free as when quiet. The lines are printed into the
 * console as a server's output reaches it (the test suite's in-memory driver, with the real flood
 * control): no Minecraft server prints that fast on demand.
 */
export async function consoleFloodBench(): Promise<FloodFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blockhost-bench-flood-'));
  const driver = new MemoryDriver();
  const { spec, open, close } = await benchGame(dataDir, driver.runtime);
  try {
    let received = 0;
    let counted = 0;
    await open((line) => {
      received++;
      counted += line.omitted ?? 1;
    });
    await new Promise((r) => setTimeout(r, 500));
    const before = counted;
    /** The event-loop delay's p99 over 10 s, while `print` prints what is due each 10 ms. */
    const tenSeconds = async (print: (due: number) => void) => {
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      const started = Date.now();
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          const elapsed = Date.now() - started;
          print(Math.min(FLOOD_LINES, elapsed));
          if (elapsed >= 10_000) resolve(void clearInterval(timer));
        }, 10);
      });
      lag.disable();
      return lag.percentile(99) / 1e6;
    };
    const quiet = await tenSeconds(() => {});
    let printed = 0;
    const flood = await tenSeconds((due) => {
      for (; printed < due; printed++) driver.print(spec.id, `flood line ${printed} ${'x'.repeat(80)}`);
    });
    // The last marker is said a second after the flood ends.
    await new Promise((r) => setTimeout(r, 1500));
    return { printed, received: received - before, counted: counted - before, quietLoopDelayP99Ms: quiet, floodLoopDelayP99Ms: flood };
  } finally {
    await close();
  }
}
