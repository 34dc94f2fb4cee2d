import { describe, expect, it } from 'vitest';
import { countGroups, splitCounts } from './batched-counts.js';

const fleets = `/application?$select=id&$filter=is_of__class eq 'fleet'`;
const counting = (status: string): string =>
  `${fleets}&$expand=owns__device/$count($filter=overall_status eq '${status}')`;

describe('countGroups', () => {
  it('groups reads of the same rows differing only in their one $count, in order', () => {
    const groups = countGroups([
      counting('operational'),
      '/device/$count',
      counting("it''s (odd"),
      undefined,
      `${fleets}&$expand=owns__device/$count`,
    ]);
    expect(groups).toEqual([
      {
        path:
          `${fleets}&$expand=owns__device/$count($filter=overall_status eq 'operational'),` +
          `owns__device/$count($filter=overall_status eq 'it''s (odd'),owns__device/$count`,
        navigation: 'owns__device',
        members: [0, 2, 4],
      },
    ]);
  });

  it('leaves alone reads that differ elsewhere or expand anything but one count', () => {
    expect(
      countGroups([
        counting('operational'),
        counting('updating').replace("'fleet'", "'app'"),
        `${fleets}&$expand=owns__device/$count,is_of__class`,
        `${fleets}&$expand=owns__device/$count($filter=id eq 1),owns__device/$count`,
        `${fleets}&$expand=owns__device`,
        `${fleets}&$expand=owns__device/$count&$expand=owns__device/$count`,
      ]),
    ).toEqual([]);
  });
});

describe('splitCounts', () => {
  const group = { path: '', navigation: 'owns__device', members: [3, 5] };

  it("gives each read its rows with its own count, in its own read's field order", () => {
    const rows = JSON.stringify([
      { id: 1, app_name: 'a', 'owns__device@0': 2, 'owns__device@1': 0 },
      { id: 2, app_name: 'b', 'owns__device@0': 0, 'owns__device@1': 7 },
    ]);
    expect(splitCounts(group, rows)).toEqual([
      '[{"id":1,"app_name":"a","owns__device":2},{"id":2,"app_name":"b","owns__device":0}]',
      '[{"id":1,"app_name":"a","owns__device":0},{"id":2,"app_name":"b","owns__device":7}]',
    ]);
    expect(splitCounts(group, '[]')).toEqual(['[]', '[]']);
  });

  it('refuses rows without exactly one count per read', () => {
    expect(splitCounts(group, JSON.stringify([{ id: 1, 'owns__device@0': 2 }]))).toBeUndefined();
    expect(
      splitCounts(
        group,
        JSON.stringify([{ id: 1, 'owns__device@0': 2, 'owns__device@1': 1, 'owns__device@2': 0 }]),
      ),
    ).toBeUndefined();
    expect(splitCounts(group, '{"id":1}')).toBeUndefined();
  });
});
