import { defineConfig } from 'vitest/config';

// Workspace sources are imported through the "source" export condition, so tests never need a build.
const resolve = { conditions: ['source'] };
const ssr = { resolve: { conditions: ['source'], externalConditions: ['source'] } };

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        ssr,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.{ts,tsx}', 'packages/server/bench/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**', '**/dist/**'],
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'integration',
          include: ['packages/server/src/**/*.int.test.ts'],
          globalSetup: ['packages/server/src/test-support/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'contract',
          include: ['packages/server/contract/**/*.test.ts', 'packages/e2e/api/**/*.test.ts'],
          globalSetup: ['packages/server/src/test-support/postgres-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'browser',
          include: ['packages/e2e/tests/**/*.e2e.test.ts'],
          globalSetup: ['packages/e2e/support/server-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One Chromium at a time on a 2-core machine.
          fileParallelism: false,
        },
      },
    ],
  },
});
