// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { deviceDetail } from '../../test-support/device-fixtures.js';
import { DeviceConfigPage } from './DeviceConfigPage.js';
import { answerConfigVars, renderPage } from '../../test-support/variables-pages.js';

afterEach(cleanup);

const uuid = deviceDetail().uuid;

const setup = (role = 'operator', device = deviceDetail()) => {
  const api = createFakeApi({
    device: [device],
    user_application_membership: [fleetMember(role)],
    application_config_variable: [
      {
        id: 1,
        name: 'BALENA_SUPERVISOR_PERSISTENT_LOGGING',
        value: '1',
        application: { __id: 12 },
      },
      { id: 2, name: 'BALENA_UI_THEME', value: 'dark', application: { __id: 12 } },
    ],
    device_environment_variable: [],
    service_install: [],
    device_config_variable: [
      { id: 9, name: 'BALENA_SUPERVISOR_POLL_INTERVAL', value: '60000', device: { __id: 101 } },
      { id: 10, name: 'RESIN_HOST_CONFIG_extra', value: 'x', device: { __id: 101 } },
    ],
  });
  answerConfigVars(api);
  renderPage(api, `/devices/${uuid}/config`, '/devices/:uuid/config', <DeviceConfigPage />);
  return { api, user: userEvent.setup() };
};

const settingRow = async (name: string) => {
  const table = await screen.findByRole('table', { name: 'Configuration' });
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryByText(name, { exact: true }) !== null);
  if (!row) throw new Error(`no setting ${name}`);
  return row;
};

describe('DeviceConfigPage', { timeout: 60_000 }, () => {
  // A generic Linux agent was offered balenaOS and Raspberry Pi settings it ignores.
  it("marks the settings the device's agent reported it does not apply", async () => {
    setup(
      'operator',
      deviceDetail({
        agent_profile: {
          manages_containers: false,
          architecture: 'amd64',
          board: null,
          honoured_config: ['BALENA_SUPERVISOR_POLL_INTERVAL'],
        },
      }),
    );
    const unused = "Not used by this device's agent";
    const poll = await settingRow('BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(within(poll).queryByText(unused)).toBeNull();
    expect(within(await settingRow('BALENA_HOST_CONFIG_gpu_mem')).getByText(unused)).toBeTruthy();
    expect(
      within(await settingRow('BALENA_SUPERVISOR_PERSISTENT_LOGGING')).getByText(unused),
    ).toBeTruthy();
  });

  it("marks nothing for a device whose agent reported no profile (balena's supervisor)", async () => {
    setup();
    await settingRow('BALENA_HOST_CONFIG_gpu_mem');
    expect(screen.queryByText("Not used by this device's agent")).toBeNull();
  });

  it("shows the fleet's value beside the device's own, and the device configuration table", async () => {
    setup();
    const logging = await settingRow('BALENA_SUPERVISOR_PERSISTENT_LOGGING');
    expect(within(logging).getByText('From the fleet')).toBeTruthy();
    expect((within(logging).getByRole('switch') as HTMLInputElement).checked).toBe(true);
    const poll = await settingRow('BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(within(poll).getByText('60000')).toBeTruthy();
    // The fleet sets no poll interval: its column says so in words.
    expect(within(poll).getByText('Not set')).toBeTruthy();
    const custom = screen.getByRole('table', { name: 'Device configuration' });
    expect(within(custom).getByText('RESIN_HOST_CONFIG_extra')).toBeTruthy();
    expect(within(custom).getByText('dark')).toBeTruthy();
  });

  it('overrides a fleet setting on the device and removes an override', async () => {
    const { api, user } = setup();
    const logging = await settingRow('BALENA_SUPERVISOR_PERSISTENT_LOGGING');
    await user.click(within(logging).getByRole('switch'));
    await user.click(
      screen.getByRole('button', { name: 'Delete BALENA_SUPERVISOR_POLL_INTERVAL' }),
    );
    await user.click(screen.getByRole('button', { name: 'Apply all' }));
    expect(await screen.findByText('All changes successful')).toBeTruthy();
    expect(api.writes).toEqual([
      { method: 'DELETE', resource: 'device_config_variable', id: 9, body: undefined },
      {
        method: 'POST',
        resource: 'device_config_variable',
        id: undefined,
        body: { device: 101, name: 'BALENA_SUPERVISOR_PERSISTENT_LOGGING', value: '0' },
      },
    ]);
  });

  it('is read-only below operators (device configuration variables)', async () => {
    setup('safe-operator');
    await settingRow('BALENA_SUPERVISOR_PERSISTENT_LOGGING');
    expect(await screen.findByText(/but not change it/)).toBeTruthy();
  });
});
