import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@flotilla/server/infra/config/config';
import type { Queryable } from '@flotilla/server/infra/db/database';
import { startServer } from '@flotilla/server/start-server';
import { inject } from 'vitest';

export type BillingServer = {
  // The console and API, on `localhost` (the browser's cookies and CSP expect a host name).
  url: string;
  // The server's own database, for what a test cannot wait for (an invoice falling past due).
  db: Queryable;
  stop: () => Promise<void>;
};

// A server of its own with FLOTILLA_BILLING=on (the run's server has billing off, which other
// scenarios rely on), on a throwaway embedded PostgreSQL in a scratch directory removed on stop.
export const startBillingServer = async (
  name: string,
  env: Record<string, string> = {},
): Promise<BillingServer> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), `flotilla-e2e-${name}-`));
  try {
    const server = await startServer(
      loadConfig({
        FLOTILLA_CONSOLE_DIR: inject('consoleDir'),
        PORT: '0',
        HOST: '127.0.0.1',
        FLOTILLA_DATA_DIR: dataDir,
        FLOTILLA_LOG_LEVEL: 'warn',
        FLOTILLA_DEMO: 'off',
        FLOTILLA_BILLING: 'on',
        FLOTILLA_MAP_TILE_URL: '',
        FLOTILLA_SIGNUP_RATE_LIMIT: '1000',
        FLOTILLA_REQUIRE_EMAIL_VERIFICATION: 'off',
        ...env,
      }),
      () => undefined,
    );
    return {
      url: server.url.replace('127.0.0.1', 'localhost'),
      db: server.ctx.db,
      stop: async () => {
        try {
          await server.stop();
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
};
