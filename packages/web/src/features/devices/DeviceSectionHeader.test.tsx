// @vitest-environment jsdom
import { configVarsAnswer } from '@flotilla/shared/variables/config-vars-answer';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { deviceDetail } from '../../test-support/device-fixtures.js';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { fleetFixture, fleetRow } from '../../test-support/fleet-helpers.js';
import { answerBoot, renderConsoleAt } from '../../test-support/render-console.js';

afterEach(cleanup);

// The device's sub-pages lost the summary's header, its Actions menu included. Each
// one is opened through the console's own route table, as a user reaches it.
const renderSection = (section: string) => {
  const device = deviceDetail();
  const api = createFakeApi({
    application: [fleetRow(fleetFixture())],
    device: [device],
    device_config_variable: [],
    device_environment_variable: [],
    device_service_environment_variable: [],
    application_config_variable: [],
    application_environment_variable: [],
    service: [],
    team_application_access: [],
    organization_membership: [],
    user_application_membership: [fleetMember('operator')],
    device_type: [],
  });
  answerBoot(api);
  api.on('GET', '/config/vars', () => ({ status: 200, body: configVarsAnswer('raspberrypi4-64') }));
  api.on('GET', `/actions/v1/${device.uuid}/checks`, () => ({ status: 200, body: null }));
  renderConsoleAt(api.client, `/devices/${device.uuid}/${section}`);
  return device;
};

describe('device sub-pages', () => {
  it.each(['actions', 'settings', 'envvars', 'config', 'diagnostics'])(
    'keep the device header and its Actions menu on /%s',
    async (section) => {
      const device = renderSection(section);
      const actions = await screen.findByRole('button', { name: 'Actions' });
      expect(screen.getByRole('button', { name: 'Manage tags' })).toBeTruthy();
      expect(screen.getByRole('heading', { level: 1, name: device.device_name })).toBeTruthy();
      await userEvent.click(actions);
      const menu = await screen.findByRole('menu');
      expect(within(menu).getByRole('menuitem', { name: /Reboot/ })).toBeTruthy();
    },
  );
});
