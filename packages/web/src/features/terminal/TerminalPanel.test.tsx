// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { renderWithClient } from '../fleets/application/test-helpers.js';
import type { TerminalAvailability } from './terminal-targets.js';
import { TerminalPanel } from './TerminalPanel.js';

const available: TerminalAvailability = {
  connected: true,
  localMode: false,
  hostDenied: null,
  serviceDenied: null,
  services: [
    { name: 'main', running: true },
    { name: 'worker', running: false },
  ],
};

// The client only supplies the session token once a session starts (TerminalView's own tests).
const renderPanel = (overrides: Partial<TerminalAvailability> = {}) =>
  renderWithClient(
    createFakeApi().client,
    <TerminalPanel uuid="abc" {...available} {...overrides} />,
  );

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
    expect(screen.getByRole('button', { name: 'Start session' })).not.toHaveProperty(
      'disabled',
      true,
    );
    expect(await targets()).toEqual(['Host OS', 'main', 'worker is not running (disabled)']);
  });

  it('leaves out the host OS for a user without ssh-host', async () => {
    renderPanel({ hostDenied: 'You need resin.device.ssh-host' });
    expect(await targets()).toEqual(['main', 'worker is not running (disabled)']);
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
