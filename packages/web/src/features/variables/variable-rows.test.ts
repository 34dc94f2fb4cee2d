import { describe, expect, it } from 'vitest';
import type { StagedChange } from './staged-edits.js';
import { effectiveValue, rowKey, variableRows } from './variable-rows.js';
import type { VariableChange } from './variable-model.js';

const owner = { resource: 'device_environment_variable', device: 1 } as const;

describe('variable rows', () => {
  it('puts the inherited value beside the own one, per service and name, sorted', () => {
    const rows = variableRows(
      [
        { name: 'MODE', serviceId: 0, value: 'fleet' },
        { name: 'MODE', serviceId: 4, value: 'fleet-main' },
      ],
      [
        { id: 9, name: 'MODE', serviceId: 0, value: 'device' },
        { id: 10, name: 'ALONE', serviceId: 0, value: 'only here' },
      ],
      [],
    );
    expect(rows.map((row) => [row.key, row.inherited, row.value])).toEqual([
      ['0:ALONE', null, 'only here'],
      ['0:MODE', 'fleet', 'device'],
      ['4:MODE', 'fleet-main', null],
    ]);
    expect(rows.map(effectiveValue)).toEqual(['only here', 'device', 'fleet-main']);
  });

  it('shows staged additions, updates and deletions on their rows', () => {
    const changes: StagedChange<VariableChange>[] = [
      {
        key: rowKey(0, 'NEW'),
        kind: 'added',
        change: { action: 'create', owner, name: 'NEW', value: 'v' },
      },
      {
        key: rowKey(0, 'MODE'),
        kind: 'updated',
        change: {
          action: 'update',
          resource: 'device_environment_variable',
          id: 9,
          name: 'MODE',
          value: 'changed',
        },
      },
      {
        key: rowKey(0, 'GONE'),
        kind: 'deleted',
        change: { action: 'delete', resource: 'device_environment_variable', id: 11, name: 'GONE' },
      },
      // A name with a colon (configuration variables) keeps it.
      {
        key: rowKey(0, 'BALENA_HOST_CONFIG_a:b'),
        kind: 'added',
        change: { action: 'create', owner, name: 'BALENA_HOST_CONFIG_a:b', value: '1' },
      },
    ];
    const rows = variableRows(
      [{ name: 'GONE', serviceId: 0, value: 'fleet' }],
      [
        { id: 9, name: 'MODE', serviceId: 0, value: 'device' },
        { id: 11, name: 'GONE', serviceId: 0, value: 'device' },
      ],
      changes,
    );
    expect(rows.map((row) => [row.name, row.staged, row.value])).toEqual([
      ['BALENA_HOST_CONFIG_a:b', 'added', '1'],
      ['GONE', 'deleted', 'device'],
      ['MODE', 'updated', 'changed'],
      ['NEW', 'added', 'v'],
    ]);
    // Once the deletion applies, the device gets the fleet's value again.
    const gone = rows.find((row) => row.name === 'GONE');
    expect(gone && effectiveValue(gone)).toBe('fleet');
  });
});
