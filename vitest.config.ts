import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Three tiers (docs/testing.md):
//   unit      `npm test`: everything on embedded PGlite, in-process (the README's test command);
//   system    `npm run test:system`: real processes and a real browser (kill -9, the compiled start,
//             `npm start` itself, chromium); .ci/run runs it;
//   postgres  `npm run test:pg`: what needs the real PostgreSQL (faults, concurrency, several
//             instances, the ledger under load, the flows once), only when TEST_DATABASE_URL is set.
// Every test file belongs to exactly one tier: test/deployment/containers.test.ts checks that .ci/run runs each.
const withPg = Boolean(process.env.TEST_DATABASE_URL);

/** Files that start real service processes or a browser: the system tier. */
export const SYSTEM_FILES = [
  'test/browser/**/*.test.ts',
  'test/docs/docs-page.test.ts',
  'test/crash/**/*.test.ts',
  'test/deployment/production-start.test.ts',
  'test/deployment/graceful-shutdown.test.ts',
  'test/startup/startup.test.ts',
];

// examples/ import the SDK by its package name; inside the repository that name is the SDK's source
// (as tsconfig.json's `paths` says). test/sdk/package.test.ts checks them against the packed SDK.
const sdkSource = { '@pix-account-service/sdk': fileURLToPath(new URL('./sdk/src/index.ts', import.meta.url)) };

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, which left a
    // core idle during `npm test`. The unit tier uses both; the system and postgres tiers keep one
    // (real processes and shared PostgreSQL clusters, timed against each other).
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias: sdkSource },
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/postgres/**', ...SYSTEM_FILES],
          testTimeout: 30_000,
          // A harness is a database and an app: seconds on a busy machine, never a minute; the bound is
          // for a machine shared with other work, not a promise of the service.
          hookTimeout: 120_000,
          setupFiles: ['test/setup/response-contract.ts'],
          pool: 'forks',
          // Files share their worker process, so PGlite's WebAssembly, the migrated database snapshot
          // (test/pglite-snapshot.ts) and the compiled response serializers are made once per worker
          // instead of once per file; every file still gets its own database.
          isolate: false,
        },
      },
      {
        resolve: { alias: sdkSource },
        test: {
          name: 'system',
          include: SYSTEM_FILES,
          maxWorkers: 1,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          setupFiles: ['test/setup/response-contract.ts'],
          pool: 'forks',
        },
      },
      ...(withPg
        ? [
            {
              test: {
                name: 'postgres',
                maxWorkers: 1,
                include: ['test/postgres/**/*.test.ts', 'test/flows/**/*.test.ts'],
                env: { TEST_DB: 'postgres' },
                setupFiles: ['test/setup/response-contract.ts'],
                testTimeout: 60_000,
                hookTimeout: 120_000,
                pool: 'forks' as const,
              },
            },
          ]
        : []),
    ],
  },
});
