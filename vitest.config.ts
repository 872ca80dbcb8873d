import { defineConfig } from 'vitest/config';

const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

/** The API suites run once per database engine: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export default defineConfig({
  test: {
    globalSetup: ['tests/fixtures/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      ...engines.map((engine) => ({
        extends: true as const,
        test: {
          name: engine,
          include: ['src/server/**/*.test.ts', 'tests/api/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB_ENGINE: engine },
        },
      })),
      {
        extends: true as const,
        test: { name: 'unit', include: ['src/contract/**/*.test.ts', 'src/runtime/**/*.test.ts', 'src/web/**/*.test.ts', 'tests/unit/**/*.test.ts'], environment: 'node' },
      },
    ],
  },
});
