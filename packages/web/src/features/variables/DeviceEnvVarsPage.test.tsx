// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { deviceDetail } from '../../test-support/device-fixtures.js';
import { DeviceEnvVarsPage } from './DeviceEnvVarsPage.js';
import {
  answerConfigVars,
  dialogsClosed,
  fill,
  fleetVariable,
  renderPage,
  serviceRows,
  serviceVariable,
} from '../../test-support/variables-pages.js';

afterEach(cleanup);

const uuid = deviceDetail().uuid;

const setup = (role = 'operator') => {
  const api = createFakeApi({
    device: [deviceDetail()],
    user_application_membership: [fleetMember(role)],
    application_environment_variable: [
      fleetVariable(1, 'GREETING', 'hello'),
      fleetVariable(2, 'LOG_LEVEL', 'info'),
    ],
    service_environment_variable: [serviceVariable(3, 4, 'GREETING', 'hi from main')],
    service: serviceRows(),
    device_environment_variable: [
      { id: 20, name: 'GREETING', value: 'device hello', device: { __id: 101 } },
      { id: 21, name: 'ONLY_HERE', value: 'mine', device: { __id: 101 } },
    ],
    // The device runs main (service 4), not proxy.
    service_install: [
      {
        id: 30,
        device: { __id: 101 },
        installs__service: { __id: 4 },
        device_service_environment_variable: [],
      },
    ],
    device_service_environment_variable: [],
    device_config_variable: [],
  });
  answerConfigVars(api);
  renderPage(api, `/devices/${uuid}/envvars`, '/devices/:uuid/envvars', <DeviceEnvVarsPage />);
  return { api, user: userEvent.setup() };
};

const table = () => screen.findByRole('table', { name: 'Device environment variables' });

const rowOf = async (name: string, service: string) => {
  const row = within(await table())
    .getAllByRole('row')
    .find(
      (candidate) =>
        within(candidate).queryByText(name, { exact: true }) !== null &&
        within(candidate).queryByText(service, { exact: true }) !== null,
    );
  if (!row) throw new Error(`no row ${name} / ${service}`);
  return row;
};

describe('DeviceEnvVarsPage', { timeout: 60_000 }, () => {
  it('shows the fleet value each variable inherits beside the device value', async () => {
    setup();
    const greeting = await rowOf('GREETING', 'All services');
    expect(within(greeting).getByText('hello')).toBeTruthy();
    expect(within(greeting).getByText('device hello')).toBeTruthy();
    expect(within(await rowOf('GREETING', 'main')).getByText('hi from main')).toBeTruthy();
    expect(within(await rowOf('LOG_LEVEL', 'All services')).getByText('info')).toBeTruthy();
    expect(within(await rowOf('ONLY_HERE', 'All services')).getByText('mine')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Variables', selected: true })).toBeTruthy();
  });

  it('overrides a service variable for this device and removes an override', async () => {
    const { api, user } = setup();
    await table();
    await user.click(screen.getByRole('button', { name: 'Edit GREETING of main' }));
    const dialog = await screen.findByRole('dialog', { name: 'Override GREETING on this device' });
    const value = within(dialog).getByLabelText('Value');
    expect((value as HTMLTextAreaElement).value).toBe('hi from main');
    await fill(user, value, 'device main');
    await user.click(within(dialog).getByRole('button', { name: 'Stage change' }));
    await dialogsClosed();
    await user.click(screen.getByRole('button', { name: 'Delete GREETING' }));
    expect((await rowOf('GREETING', 'main')).getAttribute('data-staged')).toBe('added');
    expect((await rowOf('GREETING', 'All services')).getAttribute('data-staged')).toBe('deleted');
    await user.click(screen.getByRole('button', { name: 'Apply all' }));
    expect(await screen.findByText('All changes successful')).toBeTruthy();
    expect(api.writes).toEqual([
      { method: 'DELETE', resource: 'device_environment_variable', id: 20, body: undefined },
      {
        method: 'POST',
        resource: 'device_service_environment_variable',
        id: undefined,
        body: { service_install: 30, name: 'GREETING', value: 'device main' },
      },
    ]);
  });

  it('says "Service not found" for a service the device does not run', async () => {
    const { user } = setup();
    await table();
    await user.click(screen.getByRole('button', { name: 'Add variable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add variable' });
    await fill(user, within(dialog).getByLabelText('Name'), 'PORT');
    await fill(user, within(dialog).getByLabelText('Value'), '80');
    await user.click(within(dialog).getByLabelText('Service'));
    await user.click(await screen.findByRole('option', { name: 'proxy' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('Service not found')).toBeTruthy();
    // A service it runs is accepted, as a device-only variable.
    await user.click(within(dialog).getByLabelText('Service'));
    await user.click(await screen.findByRole('option', { name: 'main' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await dialogsClosed();
    await waitFor(async () =>
      expect((await rowOf('PORT', 'main')).getAttribute('data-staged')).toBe('added'),
    );
  });

  it('is read-only for an observer', async () => {
    setup('observer');
    await rowOf('ONLY_HERE', 'All services');
    expect(await screen.findByText(/but not change them/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add variable' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
  });
});
