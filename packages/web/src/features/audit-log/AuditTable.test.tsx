// @vitest-environment jsdom
import type { AuditEntry } from '@flotilla/shared/audit-log/audit-entry';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditTable } from './AuditTable.js';

afterEach(cleanup);

const routeRecord = (id: number, changes: AuditEntry['changes']): AuditEntry => ({
  id,
  occurredAt: '2026-11-30T08:00:00.000Z',
  action: 'device_register',
  resource: 'POST /device/register',
  resourceId: null,
  organizationId: null,
  fleetId: 1,
  deviceId: null,
  actor: {
    kind: 'application',
    via: null,
    userId: null,
    username: null,
    fleetId: 1,
    deviceId: null,
    impersonatedBy: null,
    impersonatedByUsername: null,
  },
  changes,
  address: '127.0.0.1',
  userAgent: null,
  requestId: null,
});

describe('AuditTable', () => {
  it("shows a route's details as name=value and leaves out the empty ones", () => {
    render(
      <AuditTable
        label="History"
        entries={[
          routeRecord(1, { params: {}, status: 201 }),
          routeRecord(2, { params: { uuid: 'abc', id: 4 }, status: 200 }),
          routeRecord(3, { device_name: { old: 'a', new: 'b' } }),
        ]}
      />,
    );
    expect(screen.getByText('status: 201')).toBeTruthy();
    expect(screen.getByText('params: uuid=abc, id=4; status: 200')).toBeTruthy();
    expect(screen.getByText('device_name: a → b')).toBeTruthy();
    expect(screen.queryByText(/params: ;/)).toBeNull();
  });
});
