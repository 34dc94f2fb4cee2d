// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetFixture, renderWithClient } from '../../test-support/fleet-helpers.js';
import { AddDeviceDialog } from './AddDeviceDialog.js';

afterEach(cleanup);

const renderDialog = (apiUrl: string) => {
  const api = createFakeApi({ device_type: [] }, {}, { apiUrl });
  renderWithClient(
    api.client,
    <AddDeviceDialog
      application={fleetFixture()}
      downloadDenied={null}
      onClose={() => undefined}
    />,
  );
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
});
