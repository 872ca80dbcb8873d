import { defineConfig } from 'vitest/config';

const engines = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

/**
 * Unit tests sit beside their code and run once; the API suites in tests/api run once per database
 * engine: PGlite always, PostgreSQL when TEST_DATABASE_URL is set.
 */
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
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB_ENGINE: engine },
        },
      })),
      {
        // Real game servers and a Minecraft client through the API: slow, so on one engine (PGlite).
        extends: true as const,
        test: { name: 'real', include: ['tests/real/**/*.test.ts'], environment: 'node', env: { TEST_DB_ENGINE: 'pglite' } },
      },
      {
        extends: true as const,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'], environment: 'node' },
      },
    ],
  },
});
