import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoProjectArchive, findStaticBusybox } from '@flotilla/server/features/demo/demo-build';
import {
  type DistributionRegistry,
  startDistributionRegistry,
} from '@flotilla/server/test-support/distribution-registry';
import { type DockerEngine, startDockerEngine } from '@flotilla/server/test-support/docker-engine';
import { freePort } from '@flotilla/server/test-support/free-port';
import { startTestServer, type TestServer } from '@flotilla/server/test-support/test-server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BalenaFleet,
  type BalenaUser,
  createBalenaFleet,
  registerBalenaUser,
} from '../support/balena-sdk-setup.js';
import { launchBrowser } from '../support/browser.js';

// A release the server built, as its page shows it: the images of both services with their
// status and size, and the build log of the engine's steps, for the release and per service. The
// project is the demo's (two Dockerfiles around the host's static busybox, nothing pulled), built
// on a real dockerd and pushed to a real Distribution registry.

const deviceType = process.arch === 'arm64' ? 'raspberrypi4-64' : 'generic-amd64';
const built = z.object({ releaseId: z.number(), status: z.string(), log: z.array(z.string()) });

describe('the page of a release the server built', () => {
  let workDir: string;
  let registry: DistributionRegistry;
  let engine: DockerEngine;
  let server: TestServer;
  let owner: BalenaUser;
  let fleet: BalenaFleet;
  let releaseId = 0;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'flotilla-built-release-'));
    const dataDir = join(workDir, 'flotilla');
    const registryHost = `127.0.0.1:${await freePort()}`;
    engine = await startDockerEngine();
    server = await startTestServer({
      config: {
        dataDir,
        registry: { url: `http://${registryHost}`, host: registryHost },
        builderDockerHost: { socketPath: engine.socket },
      },
    });
    registry = await startDistributionRegistry(workDir, dataDir, {
      host: registryHost,
      realm: `${server.url}/auth/v1/token`,
    });
    owner = await registerBalenaUser(server.url, 'built-release');
    fleet = await createBalenaFleet(owner.sdk, 'Built', deviceType);
    const busybox = await findStaticBusybox();
    if (busybox === undefined) throw new Error('busybox-static is missing (npm test installs it)');
    const response = await fetch(`${server.url}/builder/v1/applications/${fleet.id}/releases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/x-tar' },
      body: new Uint8Array(await demoProjectArchive(busybox)),
    });
    expect(response.status).toBe(201);
    const answer = built.parse(await response.json());
    expect(answer.status, answer.log.join('\n')).toBe('success');
    releaseId = answer.releaseId;
  });

  afterAll(async () => {
    await server?.close();
    await registry?.stop();
    await engine?.stop();
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true });
  });

  const openRelease = async (page: Page): Promise<void> => {
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
    await page.goto(`/fleets/${fleet.id}/releases/${releaseId}`);
    await page.getByRole('region', { name: 'Release summary' }).waitFor();
  };

  it('shows the images of both services and the build log, for the release and per service', async () => {
    const browser = await launchBrowser();
    try {
      for (const width of [1366, 1440]) {
        const context = await browser.newContext({
          baseURL: server.url.replace('127.0.0.1', 'localhost'),
          viewport: { width, height: 900 },
        });
        const page = await context.newPage();
        await openRelease(page);
        const images = page.getByRole('table', { name: 'Services and images' });
        for (const service of ['main', 'web']) {
          const row = images.getByRole('row').filter({ hasText: service });
          await row.filter({ hasText: 'success' }).waitFor();
          // The size the engine reported for the pushed image (busybox alone is about 2 MB).
          expect(await row.textContent()).toMatch(/\d+(\.\d+)? (kB|MB)/);
        }
        const log = page.getByRole('region', { name: 'Build log' }).getByLabel('Build log lines');
        // Both services' steps, as the engine ran them, under their service names.
        await log.filter({ hasText: '[main]' }).waitFor();
        const text = (await log.textContent()) ?? '';
        expect(text).toContain('[web]');
        expect(text).toMatch(/COPY busybox \/bin\/busybox/);
        // One service's own log: the web service's httpd step and none of main's.
        const buildLog = page.getByRole('region', { name: 'Build log' });
        await buildLog.getByRole('combobox', { name: 'Service' }).click();
        await page.getByRole('option', { name: 'web' }).click();
        await log.filter({ hasText: 'mkdir -p /www' }).waitFor();
        expect(await log.textContent()).not.toContain('[main]');
        await page.screenshot({
          path: `data/e2e-screens/built-release-${width}.png`,
          fullPage: true,
        });
        await context.close();
      }
    } finally {
      await browser.close();
    }
  });
});
