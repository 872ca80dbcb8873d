import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/** Browser tests run Debian's Chromium against the built app served by the real server. */
const port = Number(process.env.E2E_PORT ?? 8091);
export const baseURL = `http://localhost:${port}`;
const dataDir = path.join(os.tmpdir(), `blockhost-e2e-${port}`);

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Generous bounds: CI shares a 2-core machine with the API suites' leftovers and game servers, where
  // a page can take seconds to render; a missing element still fails, only later.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL,
    // A French browser: the site's default language, the one most tests read.
    locale: 'fr-FR',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: {
    // A fresh data folder each run: the seeded accounts, nothing else.
    command: `rm -rf "${dataDir}" && node src/server/main.ts`,
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: baseURL, DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMIT_SIGNIN_PER_MINUTE: '1000', USAGE_SAMPLE_INTERVAL_MS: '2000' },
  },
});
