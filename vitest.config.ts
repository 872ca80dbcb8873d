import { defineConfig } from 'vitest/config';

const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

/** Unit tests that start real game servers (flying-squid processes, mineflayer clients). */
const realServerUnits = ['src/runtime/*.test.ts', 'src/runtime/gateway/*.test.ts'];

/**
 * Unit tests sit beside their code and run once; the API suites in tests/api run once per database
 * engine: PGlite always, PostgreSQL when TEST_DATABASE_URL is set.
 *
 * Files run three at a time, though the machine has two cores: an API test spends much of its time
 * waiting on PostgreSQL or a child process, and vitest's default (cores − 1) ran them one by one.
 * Tests that start real game servers run after the rest, two at a time, so their servers do not
 * compete with three busy workers for the CPU.
 */
export default defineConfig({
  test: {
    globalSetup: ['tests/fixtures/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // CI (.ci/run) also asks for the results as JSON, to print the slowest files at the end of its run.
    reporters: process.env.TEST_TIMES_FILE ? ['default', ['json', { outputFile: process.env.TEST_TIMES_FILE }]] : ['default'],
    projects: [
      ...engines.map((engine) => ({
        extends: true as const,
        test: {
          name: engine,
          include: ['tests/api/**/*.test.ts'],
          // A connection that drops and comes back: PGlite is embedded and has none to lose.
          exclude: engine === 'pglite' ? ['tests/api/listen-reconnect.test.ts'] : [],
          environment: 'node',
          env: { TEST_DB_ENGINE: engine },
          setupFiles: ['tests/fixtures/setup-databases.ts'],
          maxWorkers: 3,
          // A worker keeps its modules from one file to the next: each file no longer pays for a new
          // process, the server's imports, its compiled schemas (lib/schema-compilers.ts) and a cold JIT.
          // The files share nothing else: each has its own databases and apps (tests/fixtures/db.ts).
          isolate: false,
        },
      })),
      {
        extends: true as const,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'], exclude: realServerUnits, environment: 'node', maxWorkers: 3 },
      },
      {
        // Real game servers and a Minecraft client, through the runtime and through the API (on PGlite).
        extends: true as const,
        test: {
          name: 'real',
          include: [...realServerUnits, 'tests/real/**/*.test.ts'],
          // The gateway as a process of its own reads the database beside the API: PostgreSQL only.
          exclude: process.env.TEST_DATABASE_URL ? [] : ['tests/real/gateway-process-real.test.ts'],
          environment: 'node',
          env: { TEST_DB_ENGINE: 'pglite' },
          setupFiles: ['tests/fixtures/setup-databases.ts'],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Two API processes on one PostgreSQL, Redis and bucket (`npm run test:replicas`, not in test:api).
        extends: true as const,
        test: { name: 'replicas', include: ['tests/replicas/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 120_000, maxWorkers: 1 },
      },
    ],
  },
});
