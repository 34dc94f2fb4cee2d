// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { FleetConfigPage } from './FleetConfigPage.js';
import {
  answerConfigVars,
  dialogsClosed,
  fill,
  renderPage,
} from '../../test-support/variables-pages.js';

afterEach(cleanup);

const configVariable = (id: number, name: string, value: string) => ({
  id,
  name,
  value,
  application: { __id: 12 },
});

type Profile = { honoured_config: string[] } | null;

// The fleet's devices, each with the profile its agent reported (null: none, as balenaOS sends;
// such a device applies every setting, agent-profile-rules.test.ts).
const fleetDevices = (profiles: Profile[]) =>
  profiles.map((profile, index) => ({
    id: 200 + index,
    belongs_to__application: { __id: 12 },
    agent_profile:
      profile === null
        ? null
        : { manages_containers: false, architecture: 'amd64', board: null, ...profile },
  }));

const setup = (role = 'developer', profiles: Profile[] = []) => {
  const api = createFakeApi({
    device: fleetDevices(profiles),
    user_application_membership: [fleetMember(role)],
    application_config_variable: [
      configVariable(1, 'BALENA_SUPERVISOR_POLL_INTERVAL', '600000'),
      configVariable(2, 'BALENA_HOST_CONFIG_dtoverlay_custom', 'vc4'),
    ],
    device_config_variable: [
      {
        id: 50,
        name: 'BALENA_SUPERVISOR_POLL_INTERVAL',
        value: '60000',
        device: [
          {
            id: 101,
            uuid: 'a'.repeat(32),
            device_name: 'brave-otter',
            belongs_to__application: { __id: 12 },
          },
        ],
      },
    ],
  });
  answerConfigVars(api);
  renderPage(api, '/fleets/12/config', '/fleets/12/config', <FleetConfigPage />);
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

describe('FleetConfigPage', { timeout: 60_000 }, () => {
  it("marks the settings none of the fleet's devices' agents apply", async () => {
    setup('developer', [
      { honoured_config: ['BALENA_SUPERVISOR_POLL_INTERVAL'] },
      { honoured_config: ['BALENA_SUPERVISOR_PERSISTENT_LOGGING'] },
    ]);
    const unused = "Not used by this fleet's devices";
    expect(within(await settingRow('BALENA_HOST_CONFIG_gpu_mem')).getByText(unused)).toBeTruthy();
    expect(
      within(await settingRow('BALENA_SUPERVISOR_POLL_INTERVAL')).queryByText(unused),
    ).toBeNull();
    expect(
      within(await settingRow('BALENA_SUPERVISOR_PERSISTENT_LOGGING')).queryByText(unused),
    ).toBeNull();
  });

  // Empty selects, and switches labelled "1" or "—".
  it('labels unset and default values in words', async () => {
    setup();
    // A select without a value or default: "Not set" in the box, not an empty box.
    const warnings = await settingRow('BALENA_HOST_CONFIG_avoid_warnings');
    expect(within(warnings).getByRole('combobox').textContent).toBe('Not set');
    // A 0/1 switch at its default 1: "Default (On)", not "1".
    const splash = await settingRow('BALENA_HOST_CONFIG_disable_splash');
    expect(within(splash).getByText('Default (On)')).toBeTruthy();
    expect(within(splash).queryByText('1')).toBeNull();
    // A 0/1 switch without a default: "Not set", not "—".
    const uart = await settingRow('BALENA_HOST_CONFIG_enable_uart');
    expect(within(uart).getByText('Not set')).toBeTruthy();
    expect(within(uart).queryByText('—')).toBeNull();
    // A value edited in a dialog, unset and without a default.
    const overlay = await settingRow('BALENA_HOST_CONFIG_dtoverlay');
    expect(within(overlay).getByText('Not set')).toBeTruthy();
    expect(within(overlay).queryByText('—')).toBeNull();
  });

  it('lists the schema settings with descriptions, values and defaults, and the custom ones', async () => {
    setup();
    const poll = await settingRow('BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(
      within(poll).getByText('Define the device agent polling interval in milliseconds'),
    ).toBeTruthy();
    expect(within(poll).getByText('600000')).toBeTruthy();
    // Unset: the default, marked as such.
    const delta = await settingRow('BALENA_SUPERVISOR_DELTA_REQUEST_TIMEOUT');
    expect(within(delta).getByText('59000')).toBeTruthy();
    expect(within(delta).getByText('Default')).toBeTruthy();
    // Host config.txt settings come with the Raspberry Pi schema, with their reboot warning.
    expect(
      within(await settingRow('BALENA_HOST_CONFIG_gpu_mem')).getByText('Reboots the device'),
    ).toBeTruthy();
    const custom = screen.getByRole('table', { name: 'Custom configuration' });
    expect(within(custom).getByText('BALENA_HOST_CONFIG_dtoverlay_custom')).toBeTruthy();
  });

  it('toggles booleans and two-value enums directly and stages them', async () => {
    const { api, user } = setup();
    const vpn = await settingRow('BALENA_SUPERVISOR_VPN_CONTROL');
    await user.click(within(vpn).getByRole('switch', { name: 'BALENA_SUPERVISOR_VPN_CONTROL' }));
    expect(vpn.getAttribute('data-staged')).toBe('added');
    const delta = await settingRow('BALENA_SUPERVISOR_DELTA_VERSION');
    await user.click(
      within(delta).getByRole('switch', { name: 'BALENA_SUPERVISOR_DELTA_VERSION' }),
    );
    await user.click(screen.getByRole('button', { name: 'Apply all' }));
    expect(await screen.findByText('All changes successful')).toBeTruthy();
    expect(api.writes.map((write) => write.body)).toEqual([
      { application: 12, name: 'BALENA_SUPERVISOR_VPN_CONTROL', value: '0' },
      { application: 12, name: 'BALENA_SUPERVISOR_DELTA_VERSION', value: '2' },
    ]);
  });

  it('parses integers from the form and checks the schema minimum', async () => {
    const { api, user } = setup();
    await settingRow('BALENA_SUPERVISOR_POLL_INTERVAL');
    await user.click(screen.getByRole('button', { name: 'Edit BALENA_SUPERVISOR_POLL_INTERVAL' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Edit BALENA_SUPERVISOR_POLL_INTERVAL',
    });
    const value = within(dialog).getByLabelText('Value');
    await fill(user, value, 'soon');
    expect(within(dialog).getByText('Must be a whole number')).toBeTruthy();
    await fill(user, value, '5000');
    expect(within(dialog).getByText('Must be at least 10000')).toBeTruthy();
    await fill(user, value, ' 120000 ');
    await user.click(within(dialog).getByRole('button', { name: 'Stage change' }));
    await dialogsClosed();
    await user.click(screen.getByRole('button', { name: 'Apply all' }));
    await screen.findByText('All changes successful');
    expect(api.writes).toEqual([
      {
        method: 'PATCH',
        resource: 'application_config_variable',
        id: 1,
        body: { value: '120000' },
      },
    ]);
  });

  it('adds a custom variable only within the namespaces', async () => {
    const { user } = setup();
    await settingRow('BALENA_SUPERVISOR_POLL_INTERVAL');
    await user.click(screen.getByRole('button', { name: 'Add custom variable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add custom variable' });
    const name = within(dialog).getByLabelText('Name');
    await fill(user, name, 'MY_SETTING');
    expect(
      within(dialog).getByText('Configuration variables should begin with RESIN_ or BALENA_'),
    ).toBeTruthy();
    await fill(user, name, 'BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(within(dialog).getByText('A variable with this name already exists')).toBeTruthy();
    await fill(user, name, 'BALENA_HOST_CONFIG_gpio:4');
    await fill(user, within(dialog).getByLabelText('Value'), 'op');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await dialogsClosed();
    const custom = screen.getByRole('table', { name: 'Custom configuration' });
    await waitFor(() => expect(within(custom).getByText('BALENA_HOST_CONFIG_gpio:4')).toBeTruthy());
  });

  it('takes a PNG of at most the schema size for a data-url setting, shown and downloadable', async () => {
    const { api } = setup();
    // Files the picker would not offer are refused all the same.
    const user = userEvent.setup({ applyAccept: false });
    const splash = await settingRow('BALENA_HOST_SPLASH_IMAGE');
    const input = within(splash).getByLabelText('Upload PNG');
    await user.upload(input, new File(['jpeg'], 'splash.jpg', { type: 'image/jpeg' }));
    expect(within(splash).getByText('Only PNG images are accepted')).toBeTruthy();
    await user.upload(input, new File([new Uint8Array(65_537)], 'big.png', { type: 'image/png' }));
    expect(within(splash).getByText('The image may be at most 64 KB')).toBeTruthy();
    await user.upload(
      input,
      new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' }),
    );
    const image = await within(splash).findByRole('img', {
      name: 'BALENA_HOST_SPLASH_IMAGE image',
    });
    expect(image.getAttribute('src')).toBe('data:image/png;base64,iVBORw==');
    expect(within(splash).getByRole('link', { name: 'Download' }).getAttribute('download')).toBe(
      'BALENA_HOST_SPLASH_IMAGE.png',
    );
    expect(splash.getAttribute('data-staged')).toBe('added');
    expect(api.writes).toEqual([]);
  });

  it('lists the devices overriding a setting and deletes an override', async () => {
    const { api, user } = setup();
    await settingRow('BALENA_SUPERVISOR_POLL_INTERVAL');
    await user.click(
      screen.getByRole('button', { name: 'Overrides of BALENA_SUPERVISOR_POLL_INTERVAL' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Overrides of BALENA_SUPERVISOR_POLL_INTERVAL',
    });
    expect(await within(dialog).findByText('60000')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'brave-otter' }).getAttribute('href')).toBe(
      `/devices/${'a'.repeat(32)}/config`,
    );
    await user.click(
      within(dialog).getByRole('button', { name: 'Delete the override of brave-otter' }),
    );
    expect(await within(dialog).findByText('No device overrides this variable.')).toBeTruthy();
    expect(api.writes).toEqual([
      { method: 'DELETE', resource: 'device_config_variable', id: 50, body: undefined },
    ]);
  });

  it('needs resin.application_config_variable.all to change anything', async () => {
    setup('operator');
    await settingRow('BALENA_SUPERVISOR_POLL_INTERVAL');
    expect(await screen.findByText(/but not change it/)).toBeTruthy();
    const vpn = await settingRow('BALENA_SUPERVISOR_VPN_CONTROL');
    expect((within(vpn).getByRole('switch') as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Add custom variable' })).toBeNull();
  });
});
