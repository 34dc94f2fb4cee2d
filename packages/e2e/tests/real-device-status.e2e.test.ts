import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@flotilla/agent/logger';
import { type RealAgent, startRealAgent } from '@flotilla/agent/real-agent';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { waitUntil } from '../support/balena-sdk-setup.js';
import { baseUrl, launchBrowser, newPage } from '../support/browser.js';

// A real device that cannot run the fleet's release (here the real agent without a
// container engine) was shown as plain Online, and offered settings its agent ignores.
describe('a real device that cannot run the release', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let agent: RealAgent | undefined;
  let workDir: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('hostonly');
    fleetId = await createFleet(owner, 'Host-Only');
    workDir = await mkdtemp(join(tmpdir(), 'flotilla-host-only-'));
    const key = await owner.client.request<string>({
      method: 'POST',
      path: `/api-key/application/${fleetId}/provisioning`,
      body: { name: 'host-only device' },
    });
    const configPath = join(workDir, 'config.json');
    await writeFile(
      configPath,
      JSON.stringify({
        apiEndpoint: baseUrl(),
        applicationId: fleetId,
        deviceType: 'raspberrypi4-64',
        apiKey: key,
        flotilla: { containerEngine: 'none', rebootCommand: ['true'], shutdownCommand: ['true'] },
      }),
    );
    agent = await startRealAgent({ configPath, logger: silentLogger });
    const uuid = agent.uuid;
    // The agent's first report carries its profile.
    await waitUntil(
      'the agent to report its profile',
      () =>
        owner.client.pine.get({
          resource: 'device',
          options: { $select: ['agent_profile'], $filter: { uuid } },
        }),
      (rows) => rows[0]?.agent_profile !== null && rows[0]?.agent_profile !== undefined,
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  });
  afterAll(async () => {
    await agent?.stop();
    await browser?.close();
    await rm(workDir, { recursive: true, force: true });
  });

  it('says so in the table and on the device page, and marks the settings it ignores', async () => {
    const uuid = agent?.uuid ?? '';
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/fleets/${fleetId}/devices`);
    const table = page.getByRole('table', { name: 'Devices' });
    await table.getByText('Cannot run release').waitFor();
    const mark = table.locator('[aria-description]').first();
    expect(await mark.getAttribute('aria-description')).toMatch(/does not run containers/);
    await page.screenshot({ path: 'data/e2e-screens/host-only-table.png' });

    await page.goto(`/devices/${uuid}`);
    const alert = page.getByRole('status', { name: 'Cannot run the release' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/does not run containers/);
    await page.screenshot({ path: 'data/e2e-screens/host-only-device.png' });

    await page.goto(`/devices/${uuid}/config`);
    const settings = page.getByRole('table', { name: 'Configuration' });
    const row = (name: string) =>
      settings.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
    await row('BALENA_HOST_CONFIG_gpu_mem').getByText("Not used by this device's agent").waitFor();
    expect(
      await row('BALENA_SUPERVISOR_POLL_INTERVAL')
        .getByText("Not used by this device's agent")
        .count(),
    ).toBe(0);
    await page.context().close();
  });
});
