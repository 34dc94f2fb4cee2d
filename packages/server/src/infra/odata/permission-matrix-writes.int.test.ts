import {
  deviceKeyWritableFields,
  provisioningKeyWritableFields,
} from '@flotilla/shared/permissions/field-permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allCallers,
  createPermissionWorld,
  type PermissionWorld,
} from '../../test-support/permission-world.js';

// Writes: bulk updates and deletes touch only the rows the caller may change (or nothing), and a
// foreign key may not point at a row the caller cannot see; the oracle is
// test-support/permission-world.ts.
describe('row-level permissions: writes', () => {
  let world: PermissionWorld;
  beforeAll(async () => {
    world = await createPermissionWorld();
  });
  afterAll(async () => {
    await world.close();
  });

  const as = (caller: string): string | undefined => (caller === 'anonymous' ? undefined : caller);

  it.each(allCallers)(
    '%s bulk-patches only rows it may update, or nothing at all',
    async (caller) => {
      const before = (
        await world.db.query<{ id: number; note: string | null }>(
          'SELECT "id", "note" FROM "device" ORDER BY "id"',
        )
      ).rows;
      const readable = world.expectedIds(caller, 'device');
      const updatable = world.expectedIds(caller, 'device', 'update');
      const response = await world.api.send(
        'PATCH',
        `/device?$filter=id ne 0`,
        { note: `by ${caller}` },
        as(caller),
      );
      const after = (
        await world.db.query<{ id: number; note: string | null }>(
          'SELECT "id", "note" FROM "device" ORDER BY "id"',
        )
      ).rows;
      const changed = after
        .filter((row, index) => row.note !== before[index]?.note)
        .map((row) => row.id);
      const who = world.callers.get(caller);
      const keyMayWriteNote =
        who?.kind === 'device'
          ? (deviceKeyWritableFields.device?.update ?? []).includes('note')
          : who?.kind === 'application'
            ? (provisioningKeyWritableFields.device?.update ?? []).includes('note')
            : true;
      if (readable.some((id) => !updatable.includes(id)) || !keyMayWriteNote) {
        expect(response.status, response.text).toBe(401);
        expect(changed).toEqual([]);
      } else if (updatable.length === 0) {
        // Nothing to touch: a no-op, or a 401 when the caller holds the action on no row at all.
        expect([200, 401]).toContain(response.status);
        expect(changed).toEqual([]);
      } else {
        expect(response.status, response.text).toBe(200);
        expect(changed.sort((a, b) => a - b)).toEqual(updatable);
      }
    },
  );

  it.each(allCallers)(
    '%s bulk-deletes only tags it may delete, or nothing at all',
    async (caller) => {
      const before = (
        await world.db.query<{ id: number }>('SELECT "id" FROM "device_tag" ORDER BY "id"')
      ).rows.map((row) => row.id);
      const readable = world.expectedIds(caller, 'device_tag').filter((id) => before.includes(id));
      const deletable = world
        .expectedIds(caller, 'device_tag', 'delete')
        .filter((id) => before.includes(id));
      const response = await world.api.send(
        'DELETE',
        `/device_tag?$filter=tag_key eq 'k'`,
        undefined,
        as(caller),
      );
      const after = (
        await world.db.query<{ id: number }>('SELECT "id" FROM "device_tag" ORDER BY "id"')
      ).rows.map((row) => row.id);
      const removed = before.filter((id) => !after.includes(id));
      if (readable.some((id) => !deletable.includes(id))) {
        expect(response.status, response.text).toBe(401);
        expect(removed).toEqual([]);
      } else if (deletable.length === 0) {
        expect([200, 401]).toContain(response.status);
        expect(removed).toEqual([]);
      } else {
        expect(response.status, response.text).toBe(200);
        expect(removed).toEqual(deletable);
      }
    },
  );

  it('refuses writes whose foreign key points at a row the caller cannot see', async () => {
    const attempts: [string, string, Record<string, unknown>][] = [
      ['bob', 'device_tag', { device: world.ids['b1-one'], tag_key: 'x', value: 'y' }],
      [
        'carol',
        'application_environment_variable',
        { application: world.ids.a1, name: 'X', value: 'y' },
      ],
      ['erin', 'device_tag', { device: world.ids['a2-one'], tag_key: 'x', value: 'y' }],
      ['device', 'device_tag', { device: world.ids['a1-two'], tag_key: 'x', value: 'y' }],
      [
        'zed',
        'application',
        { app_name: 'Sneaky', organization: world.ids.a1, is_for__device_type: 1 },
      ],
    ];
    for (const [caller, resource, body] of attempts) {
      const response = await world.api.send('POST', `/${resource}`, body, caller);
      expect(response.status, `${caller} POST ${resource}: ${response.text}`).toBe(401);
    }
    const allowed = await world.api.send(
      'POST',
      '/device_tag',
      { device: world.ids['a1-one'], tag_key: 'ok', value: 'y' },
      'erin',
    );
    expect(allowed.status, allowed.text).toBe(201);
    const moved = await world.api.send(
      'PATCH',
      `/device(${world.ids['a2-one']})`,
      { belongs_to__application: world.ids.b1 },
      'carol',
    );
    expect(moved.status).toBe(401);
    const still = await world.db.query<{ app: number }>(
      'SELECT "belongs_to__application" AS app FROM "device" WHERE "id" = $1',
      [world.ids['a2-one'] ?? 0],
    );
    expect(still.rows[0]?.app).toBe(world.ids.a2);
  });
});
