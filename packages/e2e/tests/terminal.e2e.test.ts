import type { Simulator } from '@flotilla/agent/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addFleetMember,
  type ApiUser,
  createFleet,
  logInAs,
  registerUser,
} from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import {
  devicesOnline,
  type SimulatedDevice,
  simulateDevices,
} from '../support/simulated-fleet.js';
import { createRelease } from '../support/releases.js';

// Host OS and service terminals on a simulated device running a release, from
// the device page; an observer (no resin.device.ssh) gets no terminal and the websocket refuses
// them; "show logs" of a service row filters the logs panel.
describe('web terminal', () => {
  let browser: Browser;
  let owner: ApiUser;
  let observer: ApiUser;
  let simulator: Simulator;
  let devices: SimulatedDevice[];

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('term');
    const fleetId = await createFleet(owner, 'Term-Fleet');
    const [fleet] = await owner.client.pine.get({
      resource: 'application',
      options: { $select: ['id', 'slug'], $filter: { id: fleetId } },
    });
    if (!fleet) throw new Error('fleet missing');
    await createRelease(owner, fleetId, ['main']);
    observer = await registerUser('term-observer');
    await addFleetMember(owner, fleetId, observer, 'observer');
    simulator = await simulateDevices(owner, fleet, 1);
    devices = await devicesOnline(owner, fleetId, simulator);
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  it('opens a host OS terminal and reads uname -a', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const device = devices[0];
    if (!device) throw new Error('no device');
    await page.goto(`/devices/${device.uuid}`);
    await page.getByRole('button', { name: 'Start session' }).click({ timeout: 30_000 });
    const view = page.getByTestId('terminal-view');
    await expect.poll(() => view.textContent(), { timeout: 30_000 }).toContain('simulated shell');
    // The new session has the keyboard: no click first, and Enter opens no other session.
    await page.keyboard.type('uname -a');
    await page.keyboard.press('Enter');
    await expect.poll(() => view.textContent(), { timeout: 30_000 }).toMatch(/Linux \S+ 6\.1\.77/);
    await expect
      .poll(() => page.getByRole('tab', { name: /Host OS/ }).textContent())
      .toContain('connected');
    // A second session of the same target is numbered.
    await page.getByRole('button', { name: 'Start session' }).click();
    await page.getByRole('tab', { name: /Host OS 2/ }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('tab', { name: /Host OS/ }).count()).toBe(2);
    await page.screenshot({ path: 'data/e2e-screens/terminal.png', fullPage: true });
    await page.context().close();
  });

  it('opens a service terminal once the service runs, and show logs filters the logs', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const device = devices[0];
    if (!device) throw new Error('no device');
    await page.goto(`/devices/${device.uuid}`);
    // The device installs the release, then the page's refresh shows its service running.
    const showLogs = page.getByRole('button', { name: 'Show logs of main' });
    await showLogs.waitFor({ timeout: 60_000 });
    await showLogs.click();
    expect(await page.getByRole('textbox', { name: 'Filter by service' }).inputValue()).toBe(
      'main',
    );
    const target = page.getByRole('combobox', { name: 'Target' });
    await expect
      .poll(
        async () => {
          await target.click();
          const option = page.getByRole('option', { name: 'main', exact: true });
          const enabled = (await option.getAttribute('aria-disabled')) !== 'true';
          if (enabled) await option.click();
          else await page.keyboard.press('Escape');
          return enabled;
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toBe(true);
    // The button at the bottom of the window, where a retried click leaves it (a click that first
    // lands on the closing menu is retried with the button scrolled to the window's bottom edge):
    // the session opens below it and must come into view, xterm drawing nothing off screen.
    const start = page.getByRole('button', { name: 'Start session' });
    await start.evaluate((button) => button.scrollIntoView({ block: 'end' }));
    await start.click();
    const view = page.getByTestId('terminal-view');
    await expect.poll(() => view.textContent(), { timeout: 30_000 }).toContain('(service main)');
    await expect
      .poll(() => page.getByRole('tab', { name: /main/ }).textContent(), { timeout: 30_000 })
      .toContain('connected');
    await page.context().close();
  });

  it('shows an observer no terminal, and the websocket refuses them', async () => {
    const page = await newPage(browser);
    await logInAs(page, observer);
    const device = devices[0];
    if (!device) throw new Error('no device');
    await page.goto(`/devices/${device.uuid}`);
    await page.getByRole('heading', { name: 'Logs' }).waitFor({ timeout: 30_000 });
    expect(await page.getByText('Terminal', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Start session' }).count()).toBe(0);
    const token = observer.client.auth.getToken();
    if (!token) throw new Error('the observer has no session');
    const refusal = await page.evaluate(
      ({ token, uuid }) =>
        new Promise<{ code: number; last: string }>((resolve) => {
          const url = new URL('/terminal/v1', window.location.href);
          url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
          const socket = new WebSocket(url);
          let last = '';
          socket.onopen = () =>
            socket.send(
              JSON.stringify({
                type: 'start',
                token,
                uuid,
                target: { kind: 'service', service: 'main' },
                cols: 80,
                rows: 24,
              }),
            );
          socket.onmessage = (event) => {
            last = String(event.data);
          };
          socket.onclose = (event) => resolve({ code: event.code, last });
        }),
      { token, uuid: device.uuid },
    );
    expect(refusal.code).toBe(4403);
    expect(JSON.parse(refusal.last)).toMatchObject({ type: 'refused', reason: 'unauthorized' });
    await page.context().close();
  });
});
