import type { FakeRow } from './fake-odata.js';

// A release of fleet 12 as the fake API's fixture row: every field and navigation the release
// pages read.
export const releaseRow = (id: number, overrides: Record<string, unknown> = {}): FakeRow => ({
  id,
  commit: `${id}bcdef1234567890`,
  raw_version: `1.${id}.0`,
  semver: `1.${id}.0`,
  status: 'success',
  source: 'cloud',
  created_at: `2025-01-${String(id).padStart(2, '0')}T10:00:00.000Z`,
  start_timestamp: `2025-01-${String(id).padStart(2, '0')}T10:00:00.000Z`,
  update_timestamp: `2025-01-${String(id).padStart(2, '0')}T10:02:00.000Z`,
  end_timestamp: `2025-01-${String(id).padStart(2, '0')}T10:02:05.000Z`,
  is_final: true,
  is_invalidated: false,
  invalidation_reason: null,
  note: null,
  known_issue_list: null,
  build_log: '[main] Using image nginx:1.27\nBuild succeeded',
  composition: { version: '2.1', services: { main: { image: 'nginx:1.27' } } },
  belongs_to__application: { __id: 12 },
  is_created_by__user: [{ id: 7, username: 'ada' }],
  release_tag: [],
  release_asset: [],
  release_image: [
    {
      id: id * 10,
      image: [
        {
          id: id * 100,
          status: 'success',
          image_size: 84_000_000,
          error_message: null,
          dockerfile: null,
          build_log: '[main] Using image nginx:1.27',
          is_a_build_of__service: [{ id: 4, service_name: 'main' }],
        },
      ],
    },
  ],
  is_running_on__device: [],
  is_pinned_to__device: [],
  should_be_running_on__application: [],
  ...overrides,
});
