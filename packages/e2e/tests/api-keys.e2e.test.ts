import { randomBytes } from 'node:crypto';
import type { Simulator } from '@flotilla/agent/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { baseUrl, launchBrowser, newPage } from '../support/browser.js';
import { apiKeysPage } from '../support/pages/variables-pages.js';
import { devicesOnline, simulateDevices } from '../support/simulated-fleet.js';

// A fleet's provisioning keys in the console: created (shown once), used by a device
// to register, revoked.
describe('fleet API keys', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleet: { id: number; slug: string };
  let simulator: Simulator | undefined;

  // What a device's first registration with the key answers.
  const registerWith = async (key: string): Promise<number> => {
    const response = await fetch(`${baseUrl()}/device/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        application: fleet.id,
        uuid: randomBytes(16).toString('hex'),
        device_type: 'raspberrypi4-64',
      }),
    });
    await response.arrayBuffer();
    return response.status;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('keys');
    const fleetId = await createFleet(owner, 'Key-Gateways');
    const [row] = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id', 'slug'], $filter: { id: fleetId } },
    });
    if (!row) throw new Error('fleet missing');
    fleet = row;
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  it('creates a provisioning key, a device registers with it, and revoking it stops registrations', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const keys = apiKeysPage(page);
    await keys.open(fleet.id);
    await page.getByText('No provisioning keys yet').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/api-keys-empty.png', fullPage: true });
    const key = await keys.create('factory line 1');
    expect(key.length).toBeGreaterThanOrEqual(16);
    await keys.row('factory line 1').waitFor();
    await page.screenshot({ path: 'data/e2e-screens/api-keys.png', fullPage: true });

    // The real agent (simulator mode) registers with the key and comes online.
    simulator = await simulateDevices(owner, fleet, 1, key);
    const [device] = await devicesOnline(owner, fleet.id, simulator);
    expect(device?.uuid).toMatch(/^[0-9a-f]{32}$/);

    await keys.revoke('factory line 1');
    await page.getByText('factory line 1 was revoked').waitFor();
    await page.getByText('No provisioning keys yet').waitFor();
    expect(await registerWith(key)).toBe(401);
    await page.context().close();
  });
});
