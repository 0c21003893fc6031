import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Two projects: "unit" runs everything on embedded PGlite; "postgres" runs the database suites
// (test/postgres/** plus the flows) against TEST_DATABASE_URL. `npm test` runs only "unit" unless
// TEST_DATABASE_URL is set, so a fresh clone needs no database server.
const withPg = Boolean(process.env.TEST_DATABASE_URL);

// examples/ import the SDK by its package name; inside the repository that name is the SDK's source
// (as tsconfig.json's `paths` says). test/sdk/package.test.ts checks them against the packed SDK.
const sdkSource = { '@pix-account-service/sdk': fileURLToPath(new URL('./sdk/src/index.ts', import.meta.url)) };

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: sdkSource },
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/postgres/**', 'test/browser/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          setupFiles: ['test/setup/response-contract.ts'],
          pool: 'forks',
          // Files share their worker process, so PGlite's WebAssembly is compiled once per worker
          // instead of once per file (about 3 s each); every file still gets its own database.
          isolate: false,
        },
      },
      {
        // The portal in a real browser (Debian's chromium; skipped with a message when it is missing).
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
      ...(withPg
        ? [
            {
              test: {
                name: 'postgres',
                include: ['test/postgres/**/*.test.ts', 'test/flows/**/*.test.ts', 'test/portal/**/*.test.ts', 'test/sdk/sdk.test.ts'],
                env: { TEST_DB: 'postgres' },
                setupFiles: ['test/setup/response-contract.ts'],
                testTimeout: 60_000,
                hookTimeout: 60_000,
                pool: 'forks' as const,
              },
            },
          ]
        : []),
    ],
  },
});
