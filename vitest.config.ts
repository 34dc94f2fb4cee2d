import { defineConfig } from 'vitest/config';

// Workspace sources are imported through the "source" export condition, so tests never need a build.
//
// Deadlines hold on a busy machine (`npm run test:stress` runs the suite while busy loops occupy
// every core): a deadline only bounds how long a broken test hangs, a passing one never waits for
// it. No project retries a failed test: a retry would hide exactly the flakes this is about.
// Workers: vitest's default (cores - 1) runs unit and integration files side by side, then the
// contract and browser files one at a time (fileParallelism: false), so a 2-core machine runs one
// test file at a time and never more test processes than it has cores.
const resolve = { conditions: ['source'] };
const ssr = { resolve: { conditions: ['source'], externalConditions: ['source'] } };
// Every project: no retries, and expect.poll's deadline (1 s by default) sized for load.
const underLoad = { retry: 0, expect: { poll: { timeout: 20_000 } } };

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        ssr,
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.{ts,tsx}',
            'packages/web/scripts/**/*.test.ts',
            'scripts/**/*.test.ts',
            'packages/server/bench/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**', '**/dist/**'],
          // jsdom renders of MUI pages take seconds under load; see dom-setup.ts for the waits.
          setupFiles: ['packages/web/src/test-support/dom-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          ...underLoad,
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'integration',
          ...underLoad,
          // The agent's container app on a real engine lives in e2e, which may import the
          // server's test support (a private dockerd).
          include: ['packages/server/src/**/*.int.test.ts', 'packages/e2e/engine/**/*.int.test.ts'],
          globalSetup: ['packages/server/src/test-support/postgres-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Files keep the modules the previous file loaded (the server loads once, not once per
          // file). Each file still builds its own database and apps; test support keeps nothing
          // from one file to the next.
          isolate: false,
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'contract',
          ...underLoad,
          include: ['packages/server/contract/**/*.test.ts', 'packages/e2e/api/**/*.test.ts'],
          globalSetup: ['packages/server/src/test-support/postgres-global-setup.ts'],
          // Simulated devices power-cycle and npm installs the agent package within a test.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // One after the other in one process that keeps its modules: balena-sdk and the whole
          // server load once, not once per file (loading them was half of each file's time).
          // Each file starts its own server on its own database and mocks nothing.
          isolate: false,
        },
      },
      {
        resolve,
        ssr,
        test: {
          name: 'browser',
          ...underLoad,
          include: ['packages/e2e/tests/**/*.e2e.test.ts'],
          globalSetup: ['packages/e2e/support/server-global-setup.ts'],
          // A simulated device reboots while the page watches it go and come back.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One file at a time on a 2-core machine, all driving the run's one Chromium (started by
          // the global setup; each test opens its own browser context).
          fileParallelism: false,
          // One process that keeps its modules, as the contract project: the SDK, the simulator
          // and the server load once, not once per file. Each file still signs up its own users.
          isolate: false,
        },
      },
    ],
  },
});
