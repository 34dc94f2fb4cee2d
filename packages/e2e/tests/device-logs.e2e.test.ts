import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { baseUrl, launchBrowser, newPage } from '../support/browser.js';

type Line = { message: string; timestamp: number; isSystem?: boolean; serviceId?: number };

// The device page's logs panel, fed by a device that posts its own lines.
describe('device logs panel', () => {
  let browser: Browser;
  let owner: ApiUser;
  let device: { uuid: string; apiKey: string };

  const post = async (lines: Line[]): Promise<void> => {
    const response = await fetch(`${baseUrl()}/device/v2/${device.uuid}/logs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${device.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(lines),
    });
    await response.arrayBuffer();
    expect(response.status).toBe(201);
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('logs');
    const fleetId = await createFleet(owner, 'Log-Readers');
    const provisioningKey = await owner.client.request<string>({
      method: 'POST',
      path: `/api-key/application/${fleetId}/provisioning`,
      body: { name: 'e2e logs' },
    });
    const uuid = randomBytes(16).toString('hex');
    const apiKey = randomBytes(16).toString('hex');
    const response = await fetch(`${baseUrl()}/device/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${provisioningKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        application: fleetId,
        uuid,
        device_type: 'raspberrypi4-64',
        api_key: apiKey,
      }),
    });
    await response.arrayBuffer();
    expect(response.status).toBe(201);
    device = { uuid, apiKey };
  });
  afterAll(async () => {
    await browser?.close();
  });

  const openLogs = async (): Promise<Page> => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/devices/${device.uuid}`);
    await page.getByRole('heading', { name: 'Logs' }).waitFor();
    return page;
  };
  const logView = (page: Page) => page.getByRole('log', { name: 'Device logs' });

  it('shows history then live lines, filters, hides timestamps, downloads and clears', async () => {
    await post([
      { message: 'Supervisor starting', timestamp: Date.now(), isSystem: true },
      { message: 'app listening on 8080', timestamp: Date.now(), serviceId: 5 },
    ]);
    const page = await openLogs();
    const logs = logView(page);
    await logs.getByText('app listening on 8080').waitFor();
    await post([{ message: 'a live line', timestamp: Date.now(), serviceId: 5 }]);
    await logs.getByText('a live line').waitFor();

    await page.getByRole('textbox', { name: 'Filter by service' }).fill('system');
    await expect.poll(() => logs.getByText('a live line').count()).toBe(0);
    await logs.getByText('Supervisor starting').waitFor();
    await page.getByRole('textbox', { name: 'Filter by service' }).fill('');
    await logs.getByText('a live line').waitFor();

    await page.getByRole('switch', { name: 'Hide timestamps' }).check();
    await expect.poll(() => logs.getByText(/\d{4}-\d\d-\d\d \d\d:/).count()).toBe(0);
    await page.reload();
    await expect
      .poll(() => page.getByRole('switch', { name: 'Hide timestamps' }).isChecked())
      .toBe(true);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Log-Readers_.+_\d{4}-\d\d-\d\dT[\d-]+Z\.log$/);

    await page.getByRole('button', { name: 'Clear logs' }).click();
    // Clearing deletes for everyone: the console asks first.
    const confirm = page.getByRole('dialog', { name: 'Clear logs?' });
    await confirm.getByRole('button', { name: 'Clear logs' }).click();
    await expect.poll(() => logs.getByText('a live line').count()).toBe(0);
    await page.reload();
    await page.getByText('No logs yet').waitFor();
    await page.context().close();
  });

  it('stays responsive under a burst of 1,000 lines/s (frame times printed, not asserted)', async () => {
    const page = await openLogs();
    // Frame intervals as the page sees them, from requestAnimationFrame.
    await page.evaluate(() => {
      const frames: number[] = [];
      let last = performance.now();
      const tick = (now: number): void => {
        frames.push(now - last);
        last = now;
        if (frames.length < 100_000) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      Object.assign(window, { __frames: frames });
    });
    const seconds = 5;
    for (let second = 0; second < seconds; second++) {
      const started = Date.now();
      for (let batch = 0; batch < 10; batch++) {
        await post(
          Array.from({ length: 100 }, (_, index) => ({
            message: `burst ${second}-${batch}-${index} ${'x'.repeat(60)}`,
            timestamp: Date.now(),
            serviceId: 5,
          })),
        );
        const due = started + (batch + 1) * 100;
        if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      }
    }
    const lastLine = `burst ${seconds - 1}-9-99 `;
    await logView(page).getByText(lastLine, { exact: false }).waitFor({ timeout: 20_000 });
    const frames = await page.evaluate(() => {
      const value: unknown = Reflect.get(window, '__frames');
      return Array.isArray(value)
        ? value.filter((entry): entry is number => typeof entry === 'number')
        : [];
    });
    const sorted = frames.toSorted((a, b) => a - b);
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    console.log(
      `logs burst (${seconds * 1000} lines at 1,000/s): ${frames.length} frames, ` +
        `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${at(1).toFixed(1)} ms`,
    );
    const rows = await logView(page).locator(':scope > div > div').count();
    console.log(`logs burst: ${rows} rows in the DOM for 5,000 buffered lines`);
    await page.context().close();
  });
});
