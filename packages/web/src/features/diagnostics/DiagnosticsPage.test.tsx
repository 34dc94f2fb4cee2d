// @vitest-environment jsdom
import type { DiagnosticRun } from '@flotilla/shared/diagnostics/diagnostics';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeApi } from '../../test-support/fake-api.js';
import { fleetMember } from '../../test-support/fixtures.js';
import type { DeviceDetail } from '../../device/device-rows.js';
import { deviceDetail } from '../../test-support/device-fixtures.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { osTooOldForChecks } from './diagnostic-runs.js';
import { DiagnosticsPage } from './DiagnosticsPage.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const run = (overrides: Partial<DiagnosticRun>): DiagnosticRun => ({
  id: '1',
  action: 'checks',
  status: 'in_progress',
  createdAt: '2026-11-24T09:00:00.000Z',
  lastRun: null,
  diagnose_version: null,
  checks: null,
  stdout: null,
  error: null,
  ...overrides,
});

const renderPage = (device: DeviceDetail, role = 'operator') => {
  const api = createFakeApi({ device: [device], user_application_membership: [fleetMember(role)] });
  const base = `/actions/v1/${device.uuid}`;
  const latest: Record<string, DiagnosticRun | null> = { checks: null, diagnose: null };
  const reads: string[] = [];
  for (const action of ['checks', 'diagnose'] as const) {
    api.on('GET', `${base}/${action}`, () => {
      reads.push(action);
      // The service answers null while the action never ran.
      return { status: 200, body: latest[action] };
    });
  }
  renderWithClient(
    api.client,
    <Routes>
      <Route path="/devices/:uuid/diagnostics" element={<DiagnosticsPage />} />
      <Route path="/" element={<p>Home</p>} />
    </Routes>,
    `/devices/${device.uuid}/diagnostics`,
  );
  return { api, latest, reads, base };
};

const runButton = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('DiagnosticsPage', () => {
  it('runs health checks, reads the run again every 15 s while it runs, then shows both outcomes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const device = deviceDetail();
    const { api, latest, reads, base } = renderPage(device);
    await waitFor(() => expect(runButton('Run checks').disabled).toBe(false));
    expect(screen.getByRole('status').textContent).toBe('Not run yet');
    let posted = 0;
    api.on('POST', `${base}/checks`, () => {
      posted++;
      latest.checks = run({});
      return { status: 201, body: latest.checks };
    });
    fireEvent.click(runButton('Run checks'));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Running'));
    expect(posted).toBe(1);
    const readsBefore = reads.length;
    latest.checks = run({
      status: 'done',
      lastRun: '2026-11-24T09:00:05.000Z',
      diagnose_version: '1',
      checks: [
        { name: 'check_disk_space', success: true, status: 'Disk 12% used' },
        { name: 'check_timesync', success: false, status: 'Clock not synchronised' },
      ],
    });
    await act(() => vi.advanceTimersByTimeAsync(14_000));
    expect(reads.length).toBe(readsBefore);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    const table = await screen.findByRole('table', { name: 'Health checks' });
    expect(within(table).getByText('Passed')).toBeTruthy();
    expect(within(table).getByText('Failed')).toBeTruthy();
    expect(within(table).getByText('Clock not synchronised')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Done');
  });

  it('shows the last diagnostics report', async () => {
    const device = deviceDetail();
    const { latest } = renderPage(device);
    latest.diagnose = run({ action: 'diagnose', status: 'done', stdout: '=== OS ===\nDebian\n' });
    const sections = await screen.findByRole('tablist', { name: 'Diagnostics sections' });
    fireEvent.click(within(sections).getByRole('tab', { name: 'Diagnostics report' }));
    expect((await screen.findByLabelText('Diagnostics report')).textContent).toContain('Debian');
  });

  it('shows the current state next to the target state, and says when the device is offline', async () => {
    const device = deviceDetail();
    const { api } = renderPage(device);
    api.on('POST', '/supervisor/v1/device', () => ({
      status: 200,
      body: { status: 'Idle', commit: 'c0ffee' },
    }));
    api.on('GET', `/device/v3/${device.uuid}/state`, () => ({
      status: 200,
      body: { [device.uuid]: { name: device.device_name, apps: {} } },
    }));
    const sections = await screen.findByRole('tablist', { name: 'Diagnostics sections' });
    fireEvent.click(within(sections).getByRole('tab', { name: 'Supervisor state' }));
    expect((await screen.findByLabelText('Current state')).textContent).toContain('c0ffee');
    expect((await screen.findByLabelText('Target state')).textContent).toContain(
      device.device_name,
    );
    cleanup();

    const again = renderPage(device);
    again.api.on('POST', '/supervisor/v1/device', () => ({
      status: 503,
      body: { message: 'No online device(s) found' },
    }));
    again.api.on('GET', `/device/v3/${device.uuid}/state`, () => ({ status: 200, body: {} }));
    const tabs = await screen.findByRole('tablist', { name: 'Diagnostics sections' });
    fireEvent.click(within(tabs).getByRole('tab', { name: 'Supervisor state' }));
    await screen.findByText('The device is offline: its current state cannot be read');
  });

  it('shows the v2 target state to a supervisor below 13.0.0, and says why a state read failed', async () => {
    const device = deviceDetail({ supervisor_version: '12.11.38' });
    const { api } = renderPage(device);
    api.on('POST', '/supervisor/v1/device', () => ({
      status: 500,
      body: { message: 'supervisor answered garbage' },
    }));
    const v3Reads: string[] = [];
    api.on('GET', `/device/v3/${device.uuid}/state`, () => {
      v3Reads.push(device.uuid);
      return { status: 200, body: {} };
    });
    api.on('GET', `/device/v2/${device.uuid}/state`, () => ({
      status: 200,
      body: { local: { name: 'in-v2-shape', apps: {} }, dependent: { apps: {}, devices: {} } },
    }));
    const sections = await screen.findByRole('tablist', { name: 'Diagnostics sections' });
    fireEvent.click(within(sections).getByRole('tab', { name: 'Supervisor state' }));
    expect((await screen.findByLabelText('Target state')).textContent).toContain('in-v2-shape');
    expect(screen.getByRole('heading', { name: 'Target state (v2)' })).toBeTruthy();
    expect(v3Reads).toEqual([]);
    expect(
      await screen.findByText('Supervisor state error: Request error: supervisor answered garbage'),
    ).toBeTruthy();
  });

  it('says "No target received" when the target state answer is empty', async () => {
    const device = deviceDetail();
    const { api } = renderPage(device);
    api.on('POST', '/supervisor/v1/device', () => ({ status: 200, body: { status: 'Idle' } }));
    api.on('GET', `/device/v3/${device.uuid}/state`, () => ({ status: 200, body: {} }));
    const sections = await screen.findByRole('tablist', { name: 'Diagnostics sections' });
    fireEvent.click(within(sections).getByRole('tab', { name: 'Supervisor state' }));
    expect(
      await screen.findByText('Supervisor target state error: No target received'),
    ).toBeTruthy();
    expect(screen.queryByLabelText('Target state')).toBeNull();
  });

  it('says "Failed query check" with the service error when the checks cannot be read', async () => {
    const device = deviceDetail();
    const api = createFakeApi({
      device: [device],
      user_application_membership: [fleetMember('operator')],
    });
    api.on('GET', `/actions/v1/${device.uuid}/checks`, () => ({
      status: 502,
      body: { message: 'actions service unreachable' },
    }));
    renderWithClient(
      api.client,
      <Routes>
        <Route path="/devices/:uuid/diagnostics" element={<DiagnosticsPage />} />
      </Routes>,
      `/devices/${device.uuid}/diagnostics`,
    );
    expect(
      await screen.findByText(
        'Failed query check: Request error: actions service unreachable',
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
  });

  it('sends a user without resin.device.access_diagnostics home', async () => {
    renderPage(deviceDetail(), 'observer');
    expect(await screen.findByText('Home')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Run checks' })).toBeNull();
  });

  it('shows the Diagnostics tab only to those who may run it', async () => {
    renderPage(deviceDetail(), 'operator');
    await screen.findByRole('button', { name: 'Run checks' });
    expect(screen.getByRole('tab', { name: 'Diagnostics', selected: true })).toBeTruthy();
  });

  it('needs the device online with its cloudlink, and warns below OS 2.11.0', async () => {
    renderPage(deviceDetail({ is_connected_to_vpn: false, os_version: 'balenaOS 2.10.4' }));
    await screen.findByText(/need balenaOS 2\.11\.0 or later/);
    await waitFor(() => expect(screen.queryByText('Checking your permissions…')).toBeNull());
    expect(runButton('Run checks').disabled).toBe(true);
    expect(osTooOldForChecks('balenaOS 2.11.0')).toBe(false);
    expect(osTooOldForChecks('balenaOS 2.9.7+rev1')).toBe(true);
    expect(osTooOldForChecks(null)).toBe(false);
  });
});
