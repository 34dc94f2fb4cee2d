import type { Simulator } from '@flotilla/agent/simulator';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ApiUser, createFleet, logInAs, registerUser } from '../support/api-setup.js';
import { launchBrowser, newPage } from '../support/browser.js';
import { type SimulatedDevice, simulateOnline } from '../support/simulated-fleet.js';

// No page of the console scrolls sideways at the laptop widths 1366 and 1440 px, with
// a fleet whose devices carry tags and long values (the devices table once cut its Tags column).
const widths = [1366, 1440] as const;

// Screenshots to look at, when FLOTILLA_E2E_SCREENSHOTS names a folder.
const shot = async (page: Page, name: string): Promise<void> => {
  const dir = process.env.FLOTILLA_E2E_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
};

// The page has drawn its content: a heading, and nothing left loading.
const settled = async (page: Page): Promise<void> => {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForFunction(
    () =>
      document.querySelector('[aria-busy="true"], .MuiSkeleton-root, .MuiCircularProgress-root') ===
      null,
  );
};

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    // The widest elements reaching past the window, to say what overflows when it fails.
    const culprits = Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 1)
      .slice(-3)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 120));
    // A table that scrolls inside its own box hides columns just the same.
    const tables = Array.from(document.querySelectorAll('.MuiTableContainer-root')).filter(
      (container) => container.scrollWidth > container.clientWidth + 1,
    ).length;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits, tables };
  });

describe('page widths', () => {
  let browser: Browser;
  let owner: ApiUser;
  let fleetId: number;
  let organizationId: number;
  let simulator: Simulator;
  let devices: SimulatedDevice[];

  beforeAll(async () => {
    browser = await launchBrowser();
    owner = await registerUser('widths');
    fleetId = await createFleet(owner, 'Wide-Tables');
    const [organization] = await owner.client.pine.get({
      resource: 'organization',
      options: { $select: ['id'], $orderby: { id: 'asc' }, $top: 1 },
    });
    if (!organization) throw new Error('no organization');
    organizationId = organization.id;
    ({ simulator, devices } = await simulateOnline(owner, fleetId, 3, 29));
    for (const device of devices) {
      for (const [key, value] of [
        ['location', 'Building 7, second floor, north-east corner by the window'],
        ['owner', 'operations-team-west'],
        ['purpose', 'temperature-and-humidity-sensing'],
      ]) {
        await owner.client.pine.post({
          resource: 'device_tag',
          body: { device: device.id, tag_key: key, value },
        });
      }
    }
  });
  afterAll(async () => {
    await simulator?.stop();
    await browser?.close();
  });

  const userPages = (): string[] => {
    const device = devices[0]?.uuid ?? '';
    return [
      '/fleets',
      `/fleets/${fleetId}`,
      `/fleets/${fleetId}/devices`,
      `/fleets/${fleetId}/releases`,
      `/fleets/${fleetId}/envvars`,
      `/fleets/${fleetId}/config`,
      `/fleets/${fleetId}/api-keys`,
      `/fleets/${fleetId}/members`,
      `/fleets/${fleetId}/teams`,
      `/fleets/${fleetId}/settings`,
      `/devices/${device}`,
      `/devices/${device}/actions`,
      `/devices/${device}/settings`,
      `/devices/${device}/location`,
      `/devices/${device}/envvars`,
      `/devices/${device}/config`,
      `/devices/${device}/diagnostics`,
      '/orgs',
      `/orgs/${organizationId}`,
      `/orgs/${organizationId}/members`,
      `/orgs/${organizationId}/teams`,
      '/preferences/details',
      '/preferences/sshkeys',
      '/preferences/access-tokens',
      '/preferences/profile',
      '/docs/getting-started',
    ];
  };

  // Preferences had its own column (extra padding, a narrower box) and a smaller title.
  it('Preferences has the title and column of the other pages', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    const titleOf = async (path: string) => {
      await page.goto(path);
      const title = page.getByRole('heading', { level: 1 }).first();
      await title.waitFor();
      return title.evaluate((element) => {
        const style = getComputedStyle(element);
        const main = element.closest('main')?.getBoundingClientRect();
        return {
          left: Math.round(element.getBoundingClientRect().left),
          fontSize: style.fontSize,
          fontWeight: style.fontWeight,
          mainRight: Math.round(main?.right ?? 0),
        };
      });
    };
    const fleets = await titleOf('/fleets');
    const preferences = await titleOf('/preferences/details');
    expect(preferences).toEqual(fleets);
    const panel = await page.getByRole('tabpanel', { name: 'Account details' }).boundingBox();
    const tabs = await page.getByRole('tablist', { name: 'Preferences' }).boundingBox();
    // The panel spans the page's column, as the tabs above it do.
    expect(Math.round(panel?.width ?? 0)).toBe(Math.round(tabs?.width ?? -1));
    await shot(page, 'preferences-layout');
    await page.context().close();
  });

  // Empty selects and switches once read "1" or "—": every unset or default value is in words.
  it('labels unset and default settings in words on the fleet configuration page', async () => {
    const page = await newPage(browser);
    await logInAs(page, owner);
    await page.goto(`/fleets/${fleetId}/config`);
    const table = page.getByRole('table', { name: 'Configuration' });
    const row = (name: string) =>
      table.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
    await row('BALENA_HOST_CONFIG_avoid_warnings').getByText('Not set').waitFor();
    await row('BALENA_HOST_CONFIG_disable_splash').getByText('Default (On)').waitFor();
    await row('BALENA_HOST_CONFIG_enable_uart').getByText('Not set').waitFor();
    expect(await row('BALENA_HOST_CONFIG_enable_uart').getByText('—').count()).toBe(0);
    await shot(page, 'fleet-config-labels');
    await page.context().close();
  });

  for (const width of widths) {
    it(`no page scrolls sideways at ${width} px`, async () => {
      const page = await newPage(browser);
      await page.setViewportSize({ width, height: 900 });
      await logInAs(page, owner);
      const overflowing: string[] = [];
      for (const path of userPages()) {
        await page.goto(path);
        await settled(page);
        // Every device page keeps the device header with its actions.
        if (path.startsWith('/devices/')) {
          await page.getByRole('button', { name: 'Actions', exact: true }).waitFor();
          await page.getByRole('button', { name: 'Manage tags' }).waitFor();
        }
        const measured = await horizontalOverflow(page);
        await shot(page, `width-${width}${path.replaceAll('/', '_')}`);
        if (measured.scrollWidth > measured.clientWidth || measured.tables > 0) {
          overflowing.push(
            `${path}: ${measured.scrollWidth} > ${measured.clientWidth}, ${measured.tables} wide tables, ${measured.culprits.join(' | ')}`,
          );
        }
      }
      expect(overflowing).toEqual([]);

      // The devices table shows its Tags column whole, with the tags in it.
      await page.goto(`/fleets/${fleetId}/devices`);
      const table = page.getByRole('table', { name: 'Devices' });
      await table.getByRole('list', { name: 'Tags' }).first().waitFor();
      const tags = await table.getByRole('columnheader', { name: 'Tags' }).boundingBox();
      const box = await table.boundingBox();
      expect(tags && box && tags.x + tags.width <= box.x + box.width + 1).toBe(true);
      await page.context().close();
    });

    it(`the administrator's pages do not scroll sideways at ${width} px`, async () => {
      const page = await newPage(browser);
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/login');
      await page.getByLabel('E-mail').fill(inject('adminEmail'));
      await page.getByLabel('Password').fill(inject('adminPassword'));
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.getByRole('heading', { name: 'Fleets', level: 1 }).waitFor();
      const overflowing: string[] = [];
      for (const path of ['/admin', '/admin/oauth', '/admin/outbox', '/admin/os-catalogue']) {
        await page.goto(path);
        await settled(page);
        const measured = await horizontalOverflow(page);
        await shot(page, `width-${width}${path.replaceAll('/', '_')}`);
        if (measured.scrollWidth > measured.clientWidth || measured.tables > 0) {
          overflowing.push(
            `${path}: ${measured.scrollWidth} > ${measured.clientWidth}, ${measured.tables} wide tables, ${measured.culprits.join(' | ')}`,
          );
        }
      }
      expect(overflowing).toEqual([]);
      await page.context().close();
    });
  }
});
