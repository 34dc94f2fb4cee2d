// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router';
import { createFakeApi } from '../../test-support/fake-api.js';
import type { FakeRow } from '../../test-support/fake-odata.js';
import { fleetMember } from '../../test-support/fixtures.js';
import { renderWithClient } from '../../test-support/fleet-helpers.js';
import { answerDevicePageFeeds } from '../../test-support/device-page-feeds.js';
import { deviceDetail } from '../../test-support/device-fixtures.js';
import { ToastProvider } from '../../ui/toasts.js';
import { DevicePage } from './DevicePage.js';

afterEach(cleanup);

const device = deviceDetail();
const rule = { id: 4, name: 'Kernel panics', belongs_to__organization: { __id: 3 } };
const alert = (id: number, status: string, detail: string, deviceId = device.id): FakeRow => ({
  id,
  status,
  detail,
  started_at: '2026-11-30T10:00:00.000Z',
  device: { __id: deviceId },
  is_raised_by__flotilla_alert_rule: [rule],
});

const renderDevice = (alerts: FakeRow[], failAlerts = false) => {
  const api = createFakeApi({
    device: [device],
    user_application_membership: [fleetMember('observer')],
    flotilla_alert: alerts,
  });
  if (failAlerts) api.refuseNextRead('flotilla_alert', 'Database unavailable');
  answerDevicePageFeeds(api, device.uuid);
  renderWithClient(
    api.client,
    <ToastProvider>
      <Routes>
        <Route path="/devices/:uuid" element={<DevicePage />} />
      </Routes>
    </ToastProvider>,
    `/devices/${device.uuid}`,
  );
};

// The device page's banner of the device's firing alerts (features/alerts' data layer).
describe("the device page's active alerts", () => {
  it('lists the firing alerts of the device with their rule, not resolved ones or other devices', async () => {
    renderDevice([
      alert(1, 'firing', 'Log line: Kernel panic - not syncing'),
      alert(2, 'resolved', 'Offline since 2026-11-30 09:00 UTC'),
      alert(3, 'firing', 'Update aborted', device.id + 1),
    ]);
    const banner = await screen.findByRole('region', { name: 'Active alerts' });
    expect(within(banner).getByText('1 active alert')).toBeTruthy();
    expect(banner.textContent).toContain('Kernel panics: Log line: Kernel panic - not syncing');
    expect(banner.textContent).not.toContain('Offline since');
    expect(banner.textContent).not.toContain('Update aborted');
    expect(within(banner).getByRole('link', { name: 'Alert rules' }).getAttribute('href')).toBe(
      '/orgs/3/alerts',
    );
  });

  it('shows no banner when nothing fires', async () => {
    renderDevice([alert(2, 'resolved', 'Offline since 2026-11-30 09:00 UTC')]);
    await screen.findByRole('region', { name: 'Device summary' });
    expect(screen.queryByRole('region', { name: 'Active alerts' })).toBeNull();
  });

  it('says when the alerts cannot be read, with a retry', async () => {
    renderDevice([alert(1, 'firing', 'Update aborted')], true);
    expect(await screen.findByText("Could not load the device's alerts.")).toBeTruthy();
    screen.getByRole('button', { name: 'Retry' }).click();
    expect(await screen.findByRole('region', { name: 'Active alerts' })).toBeTruthy();
  });
});
