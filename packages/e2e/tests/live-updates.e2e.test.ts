import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { baseUrl, launchBrowser, newPage } from '../support/browser.js';

// While the console's event stream is connected, the device list polls only every two minutes;
// a device that is seen for the first time shows on the page because its events refreshed it.
describe('live updates through the event stream', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let device: { uuid: string; apiKey: string; name: string };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('live');
    fleetId = await createFleet(owner, 'Live-Updates');
    const provisioningKey = await owner.client.request<string>({
      method: 'POST',
      path: `/api-key/application/${fleetId}/provisioning`,
      body: { name: 'e2e live updates' },
    });
    device = {
      uuid: randomBytes(16).toString('hex'),
      apiKey: randomBytes(16).toString('hex'),
      name: '',
    };
    const response = await fetch(`${baseUrl()}/device/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${provisioningKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        application: fleetId,
        uuid: device.uuid,
        device_type: 'raspberrypi4-64',
        api_key: device.apiKey,
      }),
    });
    await response.arrayBuffer();
    expect(response.status).toBe(201);
    const [row] = await owner.client.pine.get({
      resource: 'device',
      options: { $select: ['device_name'], $filter: { uuid: device.uuid } },
    });
    device.name = row?.device_name ?? '';
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows a device coming online without waiting for the next poll', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    // When the page's stream connected, and when each read of the device list ended.
    let streamAt = Number.POSITIVE_INFINITY;
    let markPolled: (at: number) => void = () => undefined;
    const polledAfterStream = new Promise<number>((resolve) => (markPolled = resolve));
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/events/v1/stream' && response.status() === 200) {
        streamAt = Date.now();
      }
    });
    page.on('requestfinished', (request) => {
      if (new URL(request.url()).pathname === '/v7/device' && Date.now() > streamAt) {
        markPolled(Date.now());
      }
    });
    await page.goto(`/fleets/${fleetId}/devices`);
    const table = page.getByRole('table', { name: 'Devices' });
    const row = table.getByRole('row').filter({ hasText: device.name });
    // Registered and never seen.
    await row.getByText('Configuring', { exact: true }).waitFor();
    // A read of the list that ended after the stream connected sets its next poll two minutes
    // later: what the page shows within the next minute came through the stream.
    const lastPoll = await polledAfterStream;

    const report = await fetch(`${baseUrl()}/device/v3/state`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${device.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ [device.uuid]: { status: 'Idle', ip_address: '192.168.1.20' } }),
    });
    await report.arrayBuffer();
    expect(report.status).toBe(200);
    // Seen: online, without a cloudlink (reduced functionality when the fleet expects one).
    await row
      .getByText(/^(Online|Reduced functionality)$/)
      .first()
      .waitFor({ timeout: 60_000 });
    expect(Date.now() - lastPoll).toBeLessThan(120_000);
    await page.context().close();
  });
});
