import type { Simulator } from '@flotilla/agent/simulator';
import {
  type MetricHistory,
  metricHistoryPath,
} from '@flotilla/shared/device-metrics/metric-history';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { waitUntil } from '../support/balena-sdk-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { devicePage } from '../support/pages/device-pages.js';
import {
  devicesOnline,
  type SimulatedDevice,
  simulateDevices,
} from '../support/simulated-fleet.js';

// The metrics card charts a simulated device's recent readings.
describe('device metric history', () => {
  let browser: Browser;
  let owner: ApiUser;
  let simulator: Simulator;
  let device: SimulatedDevice;

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('metrics');
    const fleetId = await createFleet(owner, 'Metric-Fleet');
    const [fleet] = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id', 'slug'], $filter: { id: fleetId } },
    });
    if (!fleet) throw new Error('fleet missing');
    simulator = await simulateDevices(owner, fleet, 1);
    const [online] = await devicesOnline(owner, fleetId, simulator);
    if (!online) throw new Error('no device');
    device = online;
    // The server writes readings in batches (about a second): wait for the first one.
    await waitUntil(
      'a reading in the metric history',
      () => owner.client.request<MetricHistory>({ path: metricHistoryPath(device.uuid) }),
      (history) => history.points.length > 0,
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  it('draws CPU, temperature, memory and storage history under the bars', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const view = devicePage(page);
    await view.open(device.uuid);
    await view.heading(device.device_name).waitFor();
    const card = page.getByRole('region', { name: 'Metrics' });
    for (const label of ['CPU', 'Temperature', 'Memory', 'Storage']) {
      const chart = card.getByRole('img', {
        name: new RegExp(`^${label} over the last 24 hours: \\d+ readings?, lowest`),
      });
      await chart.waitFor({ timeout: 30_000 });
      // The chart library drew the readings (a lone first reading is a zero-length "M…Z" path)
      // under the page's Content-Security-Policy (newPage fails the test on a violation).
      const line = await chart.locator('path.MuiLineChart-line').first().getAttribute('d');
      expect(line).toMatch(/^M[\d.]+,[\d.]+/);
    }
    // The bars with their colour thresholds are still there.
    await card.getByRole('progressbar', { name: 'CPU' }).waitFor();
    await page.screenshot({ path: 'data/e2e-screens/device-metrics.png', fullPage: true });
    await page.context().close();
  });
});
