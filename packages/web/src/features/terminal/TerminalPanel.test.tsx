// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import type { TerminalAvailability } from './terminal-targets.js';
import { TerminalPanel } from './TerminalPanel.js';

const available: TerminalAvailability = {
  connected: true,
  localMode: false,
  hostDenied: null,
  serviceDenied: null,
  services: [
    { name: 'main', running: true, installId: 3 },
    { name: 'worker', running: false, installId: null },
  ],
};

// The client only supplies the session token once a session starts (TerminalView's own tests).
// `hostos`: the answer of the host OS access check.
const renderPanel = (
  overrides: Partial<TerminalAvailability> = {},
  hostos: { status: number; text: string } = { status: 200, text: 'OK' },
) => {
  const api = createFakeApi();
  let checks = 0;
  api.on('GET', '/access/v1/hostos/abc', () => {
    checks++;
    return hostos;
  });
  // A 401 makes the client ask whether the session still stands: it does.
  api.on('GET', '/actor/v1/whoami', () => ({
    status: 200,
    body: { id: 70, actorType: 'user', actorTypeId: 7, username: 'ada', email: 'ada@x.test' },
  }));
  renderWithClient(api.client, <TerminalPanel uuid="abc" {...available} {...overrides} />);
  return { checks: () => checks };
};

const targets = async (): Promise<string[]> => {
  fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Target' }));
  const list = await screen.findByRole('listbox');
  return within(list)
    .getAllByRole('option')
    .map(
      (option) =>
        `${option.textContent ?? ''}${option.getAttribute('aria-disabled') === 'true' ? ' (disabled)' : ''}`,
    );
};

afterEach(() => cleanup());

describe('terminal panel', () => {
  it('offers the host OS and the running services, a stopped service disabled', async () => {
    renderPanel();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Start session' })).not.toHaveProperty(
        'disabled',
        true,
      ),
    );
    expect(await targets()).toEqual(['Host OS', 'main', 'worker is not running (disabled)']);
  });

  it('keeps the host OS closed when the host OS access check refuses it', async () => {
    const { checks } = renderPanel(
      {},
      { status: 401, text: 'Host OS access needs balenaOS 2.0.0 or later' },
    );
    await waitFor(() => expect(checks()).toBe(1));
    await waitFor(async () =>
      expect(await targets()).toEqual([
        'Request error: Host OS access needs balenaOS 2.0.0 or later (disabled)',
        'main',
        'worker is not running (disabled)',
      ]),
    );
  });

  it('leaves out the host OS for a user without ssh-host, without asking the server', async () => {
    const { checks } = renderPanel({ hostDenied: 'You need resin.device.ssh-host' });
    expect(await targets()).toEqual(['main', 'worker is not running (disabled)']);
    expect(checks()).toBe(0);
  });

  it('shows no terminal to a user with neither permission', () => {
    renderPanel({ hostDenied: 'no', serviceDenied: 'no' });
    expect(screen.queryByText('Terminal')).toBeNull();
  });

  it('is unavailable when the device is not on the cloudlink or in local mode', () => {
    renderPanel({ connected: false });
    expect(
      screen.getByText('The terminal is unavailable: the device is not connected to the cloud'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start session' })).toBeNull();
    cleanup();
    renderPanel({ localMode: true });
    expect(
      screen.getByText('The terminal is unavailable while the device is in local mode'),
    ).toBeTruthy();
  });
});
