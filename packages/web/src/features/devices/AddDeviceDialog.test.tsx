// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { answerBilling } from '../../test-support/billing-fixtures.js';
import type { FakeData, FakeRow } from '../../test-support/fake-odata.js';
import { organizationWorld } from '../../test-support/organization-fixtures.js';
import { fleetFixture, renderWithClient } from '../../test-support/fleet-helpers.js';
import { AddDeviceDialog } from './AddDeviceDialog.js';

afterEach(cleanup);

const piType = {
  id: 30,
  slug: 'raspberrypi4-64',
  name: 'Raspberry Pi 4 (64bit)',
  is_of__cpu_architecture: [{ slug: 'aarch64' }],
};

const renderDialog = (apiUrl: string, deviceTypes: FakeRow[] = [], data: FakeData = {}) => {
  const api = createFakeApi({ device_type: deviceTypes, ...data }, {}, { apiUrl });
  api.on('GET', '/config', () => ({
    status: 200,
    body: { deployment: null, billingEnabled: data.organization_membership !== undefined },
  }));
  renderWithClient(
    api.client,
    <AddDeviceDialog
      application={fleetFixture()}
      downloadDenied={null}
      onClose={() => undefined}
    />,
  );
  return api;
};

describe('AddDeviceDialog', () => {
  it('shows the command that installs the agent from this server', () => {
    renderDialog('http://10.0.0.5:8080');
    expect(
      screen.getByText(
        'npx --yes http://10.0.0.5:8080/agent/flotilla-agent.tgz --config config.json',
      ),
    ).toBeTruthy();
    expect(screen.getByText(/Node\.js 20\.3 or later/)).toBeTruthy();
    expect(screen.queryByText(/an address only this machine reaches/)).toBeNull();
  });

  it('warns that a loopback address will not reach the server from a device', () => {
    renderDialog('http://localhost:8080');
    expect(screen.getByText(/open at localhost:8080, an address only this machine/)).toBeTruthy();
  });

  it('uses the page’s own origin when the API is on the same origin', () => {
    renderDialog('');
    expect(
      screen.getByText(
        `npx --yes ${window.location.origin}/agent/flotilla-agent.tgz --config config.json`,
      ),
    ).toBeTruthy();
  });

  it('says each download makes a provisioning key, and gives it the lifetime chosen', async () => {
    // The download itself is the browser's: a blob URL and an anchor click.
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL = () => 'blob:config';
        static override revokeObjectURL = () => undefined;
      },
    );
    const clicks = vi
      .spyOn(HTMLAnchorElement.prototype, 'click')
      .mockImplementation(() => undefined);
    const api = renderDialog('http://10.0.0.5:8080', [piType]);
    api.on('GET', '/v1/os-images', () => ({ status: 200, body: [] }));
    const bodies: Record<string, unknown>[] = [];
    api.on('POST', '/download-config', (body) => {
      bodies.push(body as Record<string, unknown>);
      return { status: 200, body: { apiKey: 'k' } };
    });
    expect(screen.getByText(/Each download creates a new provisioning key/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'provisioning keys' }).getAttribute('href')).toBe(
      '/fleets/12/api-keys',
    );
    const download = screen.getByRole('button', { name: 'Download config.json' });
    await waitFor(() => expect(download.hasAttribute('disabled')).toBe(false));
    const before = Date.now();
    await userEvent.click(download);
    await waitFor(() => expect(bodies).toHaveLength(1));
    const expiry = Date.parse(String(bodies[0]?.provisioningKeyExpiryDate));
    expect(expiry - before).toBeGreaterThanOrEqual(30 * 86_400_000);
    expect(expiry - before).toBeLessThan(31 * 86_400_000);

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Provisioning key expires after' }));
    await userEvent.click(within(await screen.findByRole('listbox')).getByText('Never expires'));
    await userEvent.click(download);
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).not.toHaveProperty('provisioningKeyExpiryDate');
    expect(clicks).toHaveBeenCalledTimes(2);
    vi.unstubAllGlobals();
    clicks.mockRestore();
  });

  it('says when the server has no OS image for the device type', async () => {
    const api = renderDialog('http://10.0.0.5:8080', [piType]);
    api.on('GET', '/v1/os-images', () => ({ status: 200, body: [] }));
    expect(
      await screen.findByText(/This server has no OS image for Raspberry Pi 4 \(64bit\)/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download OS image' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Download config.json' })).toBeTruthy();
  });

  it('offers the OS images of the device type, configured for the fleet', async () => {
    const clicked: string[] = [];
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.href);
    });
    const api = renderDialog('http://10.0.0.5:8080', [piType]);
    const asked: URL[] = [];
    api.on('GET', '/v1/os-images', (_body, url) => {
      asked.push(url);
      return {
        status: 200,
        body: [
          { release: 8, version: '6.1.0', variant: 'prod', filename: 'a.img', size: 1_610_612_736 },
          { release: 7, version: '6.0.13', variant: 'prod', filename: 'b.img', size: 734_003_200 },
        ],
      };
    });
    const bodies: Record<string, unknown>[] = [];
    api.on('POST', '/download-os-image', (body) => {
      bodies.push(body as Record<string, unknown>);
      return {
        status: 200,
        body: { url: '/os-image-download/t1', expiresAt: '', filename: 'kiosks.img' },
      };
    });
    const version = await screen.findByRole('combobox', { name: 'OS version' });
    expect(asked[0]?.searchParams.get('deviceType')).toBe('raspberrypi4-64');
    expect(version.textContent).toContain('6.1.0 (prod) · 1.5 GiB');
    fireEvent.mouseDown(version);
    await userEvent.click(within(await screen.findByRole('listbox')).getByText(/6\.0\.13/));
    await userEvent.click(screen.getByRole('button', { name: 'Download OS image' }));
    await waitFor(() => expect(clicked).toEqual(['http://10.0.0.5:8080/os-image-download/t1']));
    expect(bodies[0]).toMatchObject({
      appId: 12,
      release: 7,
      deviceType: 'raspberrypi4-64',
      appUpdatePollInterval: 10,
    });
    expect(bodies[0]).toHaveProperty('provisioningKeyExpiryDate');
    clicks.mockRestore();
  });
});

// Where billing is on, an administrator of Acme (3) on the free plan with `devices` active and
// `frozen` frozen devices.
const renderOnFreePlan = (role: 'administrator' | 'member', devices: number, frozen = 0) => {
  const world = organizationWorld(role);
  const api = renderDialog('http://10.0.0.5:8080', [piType], {
    organization_membership: world.organization_membership ?? [],
  });
  answerBilling(api, 3);
  // No OS image in the catalogue: the dialog offers config.json.
  api.on('GET', '/v1/os-images', () => ({ status: 200, body: [] }));
  // Every member may read the free allowance; the rest of the billing API is administrators'.
  api.on('GET', '/billing/v1/account/3/free-allowance', () => ({
    status: 200,
    body: { allowance: 10, devices, frozen },
  }));
  return api;
};

describe('AddDeviceDialog on the free plan', () => {
  it('blocks provisioning at the allowance and links an administrator to Upgrade', async () => {
    renderOnFreePlan('administrator', 10);
    expect(
      await screen.findByText(/Free plan allowance reached \(10 of 10 devices\)/),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe(
      '/orgs/3/billing#billing-plans',
    );
    expect(
      screen.getByRole('button', { name: 'Download config.json' }).hasAttribute('disabled'),
    ).toBe(true);
  });

  it('says when devices are frozen over the allowance', async () => {
    renderOnFreePlan('administrator', 10, 2);
    expect(await screen.findByText(/2 of them are\s+frozen/)).toBeTruthy();
  });

  it('counts the free devices in use below the allowance, leaving provisioning open', async () => {
    renderOnFreePlan('administrator', 6);
    expect(await screen.findByText('6 of your 10 free devices are in use.')).toBeTruthy();
  });

  it('warns a member too, who is told to ask an administrator (no Upgrade link)', async () => {
    const api = renderOnFreePlan('member', 10);
    const asked: string[] = [];
    api.on('GET', '/billing/v1/account/3/plan', () => {
      asked.push('plan');
      return { status: 401, text: 'Unauthorized' };
    });
    expect(
      await screen.findByText(/allowance reached \(10 of 10 devices\).*Ask an administrator/s),
    ).toBeTruthy();
    await waitFor(() =>
      expect(api.reads.some((url) => url.pathname.includes('organization_membership'))).toBe(true),
    );
    expect(screen.queryByRole('link', { name: 'Upgrade' })).toBeNull();
    expect(
      screen.getByRole('button', { name: 'Download config.json' }).hasAttribute('disabled'),
    ).toBe(true);
    expect(asked).toEqual([]);
  });
});
