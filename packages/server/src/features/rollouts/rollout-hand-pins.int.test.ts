import { afterEach, describe, expect, it } from 'vitest';
import {
  type Behaviour,
  createRolloutWorld,
  type RolloutWorld,
} from '../../test-support/rollout-world.js';

// A device pinned by hand during a rollout: the rollout never overrides the pin, shows the device
// as pinned by hand, and leaves it out of its wave's gates.

let world: RolloutWorld;
afterEach(async () => {
  await world.close();
});

const pinOf = async (device: number): Promise<number | null> =>
  (
    await world.db.query<{ pin: number | null }>(
      `SELECT "is_pinned_on__release" AS "pin" FROM "device" WHERE "id" = $1`,
      [device],
    )
  ).rows[0]?.pin ?? null;

const pinByHand = async (device: number, release: number): Promise<void> => {
  const response = await world.call('PATCH', `/v7/device(${device})`, {
    is_pinned_on__release: release,
  });
  expect(response.statusCode).toBe(200);
};

type DeviceRow = { id: number; state: string; reason: string | null };
const detail = async (id: number): Promise<{ status: string; devices: DeviceRow[] }> => {
  const body = (await world.call('GET', `/rollouts/v1/rollouts/${id}`)).json();
  return { status: String(body.status), devices: body.devices as DeviceRow[] };
};

describe('a device pinned by hand during a rollout', () => {
  it('keeps its pin, shows as pinned by hand and stays out of the gates', async () => {
    world = await createRolloutWorld(10);
    const started = await world.call('POST', `/rollouts/v1/fleets/${world.fleet}/rollouts`, {
      targetRelease: world.v2,
      waves: [{ percent: 20 }, { percent: 100 }],
      gates: { soakMinutes: 10, failureBudgetPercent: 10, problemGraceMinutes: 5 },
    });
    expect(started.statusCode).toBe(201);
    const id = Number(started.json().id);
    const pins = await Promise.all(
      world.devices.map(async (device) => [device, await pinOf(device)]),
    );
    const inWave = pins.filter(([, pin]) => pin === world.v2).map(([device]) => device ?? 0);
    const pending = pins.filter(([, pin]) => pin === null).map(([device]) => device ?? 0);
    const [soaking = 0] = inWave;
    const [waiting = 0] = pending;
    await pinByHand(soaking, world.v1);
    await pinByHand(waiting, world.v1);
    // The hand-pinned device of the first wave crash-loops: counted, it would halt the wave.
    const faults = new Map<number, Behaviour>([[soaking, 'crash-loop']]);
    await world.report(faults);
    await world.tick();
    const seen = await detail(id);
    expect(seen.devices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: soaking, state: 'pinned_by_hand' }),
        expect.objectContaining({
          id: waiting,
          state: 'pinned_by_hand',
          reason: `Pinned by hand on release ${world.v1}`,
        }),
      ]),
    );
    world.advance(11);
    await world.report(faults);
    await world.tick();
    // The first wave passed without it, and the second wave left the waiting device's pin alone.
    expect((await detail(id)).status).toBe('running');
    expect(await pinOf(waiting)).toBe(world.v1);
    expect(await pinOf(pending[1] ?? 0)).toBe(world.v2);
    await world.report();
    await world.tick();
    world.advance(11);
    await world.report();
    await world.tick();
    expect((await detail(id)).status).toBe('completed');
    // Completion lifts the rollout's pins only: the hand pins stay.
    expect(await pinOf(soaking)).toBe(world.v1);
    expect(await pinOf(waiting)).toBe(world.v1);
    expect(await pinOf(pending[1] ?? 0)).toBeNull();
  });
});
