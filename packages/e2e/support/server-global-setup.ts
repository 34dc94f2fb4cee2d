import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultConsoleDir } from '@flotilla/server/features/console/register-console';
import { loadConfig } from '@flotilla/server/infra/config/config';
import { startServer } from '@flotilla/server/start-server';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumLaunchOptions } from './chromium.js';
import { startMailCatcher } from './mail-catcher.js';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
    // The served copy of the built console, which a test may change (a "new build").
    consoleDir: string;
    // Where the test SMTP server writes each message it receives (support/mailbox.ts).
    mailDir: string;
    // The run's Chromium, which every browser test file connects to (support/browser.ts);
    // unset in projects without it.
    chromiumEndpoint?: string;
  }
}

const adminEmail = 'admin@e2e.flotilla.test';
const adminPassword = 'e2e-admin-password-1';

// The whole product as a user gets it: the built console and the API on one port, on a throwaway
// embedded PostgreSQL.
export const setup = async (project: TestProject): Promise<() => Promise<void>> => {
  if (!existsSync(path.join(defaultConsoleDir, 'index.html'))) {
    throw new Error(
      'The console is not built: run `npm run build` (npm test does) before the browser tests.',
    );
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-e2e-'));
  // A copy, so a test can simulate an upgrade without touching packages/web/dist.
  const consoleDir = path.join(dataDir, 'console');
  await cp(defaultConsoleDir, consoleDir, { recursive: true });
  // Mail goes out through SMTP, as in production, to a real SMTP server kept here.
  const mailDir = path.join(dataDir, 'mail');
  await mkdir(mailDir);
  const smtp = await startMailCatcher(mailDir);
  const config = loadConfig({
    FLOTILLA_CONSOLE_DIR: consoleDir,
    PORT: '0',
    HOST: '127.0.0.1',
    FLOTILLA_DATA_DIR: dataDir,
    FLOTILLA_ADMIN_EMAIL: adminEmail,
    FLOTILLA_ADMIN_PASSWORD: adminPassword,
    FLOTILLA_LOG_LEVEL: 'warn',
    FLOTILLA_DEMO: 'off',
    // Maps show no tiles: browser tests never reach the internet.
    FLOTILLA_MAP_TILE_URL: '',
    // Every browser and API test signs its users up from this one address.
    FLOTILLA_SIGNUP_RATE_LIMIT: '1000',
    FLOTILLA_SMTP_URL: smtp.url,
    // With SMTP, e-mail verification is required by default; the tests' users sign up through
    // the API and go straight on (account-mail.e2e.test.ts covers verification itself).
    FLOTILLA_REQUIRE_EMAIL_VERIFICATION: 'off',
    // The deploy test serves its project tarball on loopback (the builder refuses it otherwise).
    FLOTILLA_BUILDER_ALLOWED_NETWORKS: '127.0.0.1/32',
    // The webhooks test's receiver listens on loopback too.
    FLOTILLA_WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  });
  const server = await startServer(config, () => undefined);
  // One Chromium for the whole run rather than one per file.
  const chromiumServer = await chromium.launchServer(chromiumLaunchOptions);
  project.provide('baseUrl', server.url);
  project.provide('adminEmail', adminEmail);
  project.provide('adminPassword', adminPassword);
  project.provide('consoleDir', consoleDir);
  project.provide('mailDir', mailDir);
  project.provide('chromiumEndpoint', chromiumServer.wsEndpoint());
  return async () => {
    await chromiumServer.close();
    await server.stop();
    await smtp.close();
    await rm(dataDir, { recursive: true, force: true });
  };
};
