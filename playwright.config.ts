import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Browser tests run Debian's Chromium against the built app served by the real server. Two workers
 * (`E2E_WORKERS`), each with a server of its own on the next port, data folder and game ports: a
 * test sees only its own server's state, as when they ran one by one, and the two overlap their
 * waits for game servers, sign-ins and pages.
 */
const firstPort = Number(process.env.E2E_PORT ?? 8091);
// Each server's game ports follow its HTTP port, so two runs on other E2E_PORTs never share one.
const firstGamePort = 25565 + 200 * (firstPort - 8091);
const workers = Number(process.env.E2E_WORKERS ?? 2);
// Playwright numbers its workers 0, 1… in TEST_PARALLEL_INDEX; the main process has none.
export const port = firstPort + Number(process.env.TEST_PARALLEL_INDEX ?? 0);
export const baseURL = `http://localhost:${port}`;
/** Where the server of `port` sends its mails: a spec that reads them listens there. */
export const smtpPort = (port: number) => port + 10_000;
export const dataDir = (port: number) => path.join(os.tmpdir(), `blockhost-e2e-${port}`);

function server(index: number) {
  const port = firstPort + index;
  const url = `http://localhost:${port}`;
  const games = firstGamePort + 200 * index;
  return {
    // A fresh data folder each run: the seeded accounts, nothing else.
    command: `rm -rf "${dataDir(port)}" && node src/server/main.ts`,
    url: `${url}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir(port),
      GAME_PORT_RANGE: `${games}-${games + 99}`,
      // The game gateway on a port of this server's block, outside its game ports: players by name.
      GAME_GATEWAY_PORT: String(games + 150),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SIGNIN_PER_MINUTE: '1000',
      USAGE_SAMPLE_INTERVAL_MS: '2000',
      // renewals.spec.ts waits for rounds of the renewals loop, twice.
      RENEWAL_INTERVAL_MS: '5000',
      // account.spec.ts reads the mails on an SMTP server of its own there (smtpPort).
      SMTP_URL: `smtp://127.0.0.1:${smtpPort(port)}`,
    },
  };
}

// Specs that only take pictures run with `npm run looks` alone.
const looksOnly = process.env.LOOKS === '1' ? [] : ['looks/**'];

/**
 * The tests that start real game servers (flying-squid) or play with bots carry the tag
 * `@game-server`. Two of them at once on a 2-core machine each took two to three times as long as
 * alone, their servers' starts competing for the same cores: they run one at a time, in one worker,
 * from the start of the run, while the other worker takes the tests that only need pages and the
 * API, including those of the same files (each test makes its own players and servers).
 */
const gameServer = /@game-server/;

export default defineConfig({
  testDir: 'tests/e2e',
  testIgnore: looksOnly,
  // The game servers' project first: Playwright queues the projects' tests in this order, so their
  // chain, the longer one, starts at once; a worker free while one of them runs takes a page test.
  projects: [
    { name: 'game servers', grep: gameServer, workers: 1 },
    { name: 'pages', grepInvert: gameServer },
  ],
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers,
  retries: 0,
  // Generous bounds: CI shares a 2-core machine with the API suites' leftovers and game servers, where
  // a page can take seconds to render; a missing element still fails, only later.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // CI (.ci/run) also asks for the results as JSON, to print the slowest tests at the end of its run.
  reporter: [['list'], ...(process.env.TEST_TIMES_FILE ? [['json', { outputFile: process.env.TEST_TIMES_FILE }] as const] : [])],
  use: {
    baseURL,
    // A French browser: the site's default language, the one most tests read.
    locale: 'fr-FR',
    // Less motion, as a player may ask their system for: a spinner drawn in software takes a fifth of
    // a core for as long as it turns, and the tests wait on many. shell.spec.ts checks both ways.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: Array.from({ length: workers }, (_, index) => server(index)),
});
