import { FlotillaApiError } from '@flotilla/sdk/errors';
import { describe, expect, it } from 'vitest';
import type { BatchFleet, BatchRows } from './batch-fleets.js';
import { batchFleetsOf } from './batch-fleets.js';
import { batchGates, namesList, outcomeToast, sharedArchitecture } from './batch-rules.js';
import type { Outcome } from '../../../ui/run-with-concurrency.js';

const aarch64 = { id: 4, slug: 'aarch64' };
const amd64 = { id: 2, slug: 'amd64' };

const fleet = (overrides: Partial<BatchFleet> = {}): BatchFleet => ({
  id: 1,
  name: 'garden-sensors',
  className: 'fleet',
  organizationId: 3,
  deviceType: { id: 30, slug: 'raspberrypi4-64', name: 'Raspberry Pi 4' },
  architecture: aarch64,
  isLegacy: false,
  roles: ['developer'],
  ...overrides,
});

const settled = { pending: false, error: null };

describe('sharedArchitecture', () => {
  it('accepts fleets of one architecture, whatever their device types', () => {
    const check = sharedArchitecture([
      fleet(),
      fleet({ id: 2, name: 'orchard', deviceType: { id: 31, slug: 'jetson', name: 'Jetson' } }),
    ]);
    expect(check).toEqual({ ok: true, architecture: aarch64 });
  });

  it('blocks fleets of different architectures and names them per architecture', () => {
    const check = sharedArchitecture([
      fleet(),
      fleet({ id: 2, name: 'orchard' }),
      fleet({ id: 3, name: 'kiosks', architecture: amd64 }),
    ]);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.reason).toContain('different CPU architectures');
    expect(check.reason).toContain('aarch64: garden-sensors and orchard');
    expect(check.reason).toContain('amd64: kiosks');
  });

  it('blocks a fleet whose architecture is unknown, and an empty selection', () => {
    const unknown = sharedArchitecture([
      fleet(),
      fleet({ id: 2, name: 'bare', architecture: null }),
    ]);
    expect(unknown).toEqual({ ok: false, reason: 'CPU architecture not found for bare' });
    expect(sharedArchitecture([]).ok).toBe(false);
  });
});

describe('batchGates', () => {
  it('lets a developer rename one fleet and change device types, but not delete', () => {
    const gates = batchGates([fleet()], 1, settled);
    expect(gates.rename).toBeNull();
    expect(gates.deviceType).toBeNull();
    expect(gates.delete).toMatch(
      /^Not allowed for garden-sensors: .*developers do not have permission/,
    );
  });

  it('allows everything to administrators, rename only with exactly one selected', () => {
    const admin = (id: number, name: string) => fleet({ id, name, roles: ['administrator'] });
    const gates = batchGates([admin(1, 'a-one'), admin(2, 'a-two')], 2, settled);
    expect(gates).toEqual({
      rename: 'Select exactly one to rename',
      deviceType: null,
      delete: null,
    });
  });

  it('names the fleets the user may not change', () => {
    const gates = batchGates(
      [
        fleet({ roles: ['administrator'] }),
        fleet({ id: 2, name: 'watched', roles: ['observer', 'member'] }),
      ],
      2,
      settled,
    );
    expect(gates.deviceType).toMatch(/^Not allowed for watched: Observers/);
    expect(gates.delete).toMatch(/^Not allowed for watched: /);
  });

  it('blocks renaming legacy applications', () => {
    expect(batchGates([fleet({ isLegacy: true })], 1, settled).rename).toBe(
      'cannot rename classic and legacy applications',
    );
  });

  it('blocks everything while loading, on error and without a selection', () => {
    expect(batchGates(undefined, 2, { pending: true, error: null }).delete).toBe(
      'Checking your permissions…',
    );
    expect(batchGates(undefined, 2, { pending: false, error: new Error('boom') }).rename).toBe(
      'Could not check your permissions: boom',
    );
    expect(batchGates([], 0, settled).deviceType).toBe('Nothing selected');
  });
});

describe('outcomeToast', () => {
  const texts = { done: 'Deleted 3 fleets', failed: 'Could not delete', items: 'fleets' };
  const ok = (name: string): Outcome<BatchFleet, unknown> => ({
    item: fleet({ name }),
    ok: true,
    value: undefined,
  });
  const failed = (name: string, error: unknown): Outcome<BatchFleet, unknown> => ({
    item: fleet({ name }),
    ok: false,
    error,
  });
  const forbidden = new FlotillaApiError({
    status: 401,
    body: 'Unauthorized',
    message: 'Unauthorized',
    method: 'DELETE',
    path: '/v7/application(1)',
    token: 'a-session-token',
  });

  it('reports success, partial failure and total failure', () => {
    expect(outcomeToast([ok('a'), ok('b'), ok('c')], texts)).toEqual({
      kind: 'success',
      text: 'Deleted 3 fleets',
    });
    const partial = outcomeToast(
      [ok('a'), failed('b', new Error('Fleet is locked')), ok('c')],
      texts,
    );
    expect(partial).toEqual({
      kind: 'warning',
      text: 'Operation failed for 1 of the 3 selected fleets (b) with Fleet is locked',
    });
    const all = outcomeToast([failed('a', forbidden), failed('b', forbidden)], texts);
    expect(all.kind).toBe('error');
    expect(all.text.startsWith('Could not delete: ')).toBe(true);
  });
});

describe('batch helpers', () => {
  it('lists names with "and N more"', () => {
    expect(namesList(['a'])).toBe('a');
    expect(namesList(['a', 'b'])).toBe('a and b');
    expect(namesList(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c and 2 more');
  });

  it('gives each application the roles held on it', () => {
    const application = (id: number, organization: number) => ({
      id,
      app_name: `fleet-${id}`,
      is_of__class: 'fleet' as const,
      organization: [{ id: organization }],
      is_for__device_type: [
        { id: 30, slug: 'rpi4', name: 'Pi 4', is_of__cpu_architecture: [aarch64] },
      ],
      application_type: [{ is_legacy: false }],
    });
    const rows: BatchRows = {
      fleets: [application(1, 3), application(2, 3), application(3, 9)],
      memberships: {
        fleetMemberships: [{ fleetId: 1, role: 'observer' }],
        teamAccesses: [{ fleetId: 2, role: 'operator' }],
        organizationMemberships: [
          { organizationId: 3, role: 'member' },
          { organizationId: 9, role: 'administrator' },
        ],
      },
    };
    const fleets = batchFleetsOf(rows, []);
    expect(fleets.map((entry) => entry.roles)).toEqual([
      ['observer', 'member'],
      ['operator', 'member'],
      ['administrator'],
    ]);
    expect(fleets[0]?.architecture).toEqual(aarch64);
  });
});
