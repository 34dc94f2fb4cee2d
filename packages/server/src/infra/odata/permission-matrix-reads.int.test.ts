import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allCallers,
  createPermissionWorld,
  matrixResources,
  type PermissionWorld,
} from '../../test-support/permission-world.js';

// Reads: what every kind of caller sees of every resource, directly, through $expand, lambdas
// and nested counts, compared with the oracle (test-support/permission-world.ts), which computes
// in code from the shared permission tables what the engine filters in SQL.
describe('row-level permissions: reads', () => {
  let world: PermissionWorld;
  beforeAll(async () => {
    world = await createPermissionWorld();
  });
  afterAll(async () => {
    await world.close();
  });

  const as = (caller: string): string | undefined => (caller === 'anonymous' ? undefined : caller);
  const idsOf = (body: unknown): number[] =>
    ((body as { d: { id: number }[] }).d ?? []).map((row) => row.id).sort((a, b) => a - b);

  it.each(
    allCallers.flatMap((caller) => matrixResources.map((resource) => [caller, resource] as const)),
  )('%s reads exactly the permitted %s rows, and counts them', async (caller, resource) => {
    const want = world.expectedIds(caller, resource);
    const response = await world.api.get(`/${resource}?$select=id`, as(caller));
    if (want.length === 0 && response.status === 401) return; // holds the action on no row at all
    expect(response.status, response.text).toBe(200);
    expect(idsOf(response.body)).toEqual(want);
    const count = await world.api.get(`/${resource}/$count`, as(caller));
    expect(count.body).toEqual({ d: want.length });
  });

  it.each(allCallers)(
    '%s sees through $expand, lambdas and nested counts only what it may read',
    async (caller) => {
      const visibleDevices = world.expectedIds(caller, 'device');
      const visibleFleets = world.expectedIds(caller, 'application');
      const expanded = await world.api.get(
        '/application?$select=id&$expand=owns__device($select=id)',
        as(caller),
      );
      if (visibleFleets.length === 0 && expanded.status === 401) return;
      expect(expanded.status, expanded.text).toBe(200);
      for (const fleet of (expanded.body as { d: { id: number; owns__device: { id: number }[] }[] })
        .d) {
        for (const device of fleet.owns__device) expect(visibleDevices).toContain(device.id);
      }
      const counted = await world.api.get(
        '/application?$select=id&$expand=owns__device/$count',
        as(caller),
      );
      const seen = (counted.body as { d: { owns__device: number }[] }).d.reduce(
        (sum, fleet) => sum + fleet.owns__device,
        0,
      );
      expect(seen).toBe(visibleDevices.length);
      // A device the caller cannot read must not reveal its fleet through a lambda.
      const hidden = ['a1-one', 'a2-one', 'b1-one']
        .map((name) => world.ids[name] ?? 0)
        .filter((id) => !visibleDevices.includes(id));
      for (const id of hidden) {
        const probe = await world.api.get(
          `/application?$select=id&$filter=owns__device/any(d:d/id eq ${id})`,
          as(caller),
        );
        expect(probe.status === 401 || idsOf(probe.body).length === 0, probe.text).toBe(true);
        const counted = await world.api.get(
          `/application/$count?$filter=owns__device/$count($filter=id eq ${id}) gt 0`,
          as(caller),
        );
        expect(counted.status === 401 || (counted.body as { d: number }).d === 0).toBe(true);
      }
    },
  );
});
