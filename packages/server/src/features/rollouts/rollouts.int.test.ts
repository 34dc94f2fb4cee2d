import { afterEach, describe, expect, it } from 'vitest';
import { tagDevice } from '../../test-support/fixtures.js';
import {
  type Behaviour,
  createRolloutWorld,
  type RolloutWorld,
} from '../../test-support/rollout-world.js';

// Rollouts over the fake clock: the server's scheduler tick is driven by the test, devices act out
// their state reports (release, services, contacts) on the same clock.

let world: RolloutWorld;
afterEach(async () => {
  await world.close();
});

const gates = { soakMinutes: 10, failureBudgetPercent: 10, problemGraceMinutes: 5 };

const start = async (waves: object[], extra: object = {}): Promise<number> => {
  const response = await world.call('POST', `/rollouts/v1/fleets/${world.fleet}/rollouts`, {
    targetRelease: world.v2,
    waves,
    gates: { ...gates, ...extra },
  });
  expect(response.statusCode).toBe(201);
  return Number(response.json().id);
};

const detail = async (id: number): Promise<Record<string, unknown>> =>
  (await world.call('GET', `/rollouts/v1/rollouts/${id}`)).json();

const pins = async (): Promise<Map<number, number | null>> => {
  const { rows } = await world.db.query<{ id: number; pin: number | null }>(
    `SELECT "id", "is_pinned_on__release" AS "pin" FROM "device" WHERE "belongs_to__application" = $1`,
    [world.fleet],
  );
  return new Map(rows.map((row) => [row.id, row.pin]));
};

const pinnedOn = async (release: number): Promise<number> =>
  [...(await pins()).values()].filter((pin) => pin === release).length;

// One soak: the devices report, the tick sees them healthy, the soak time passes, again.
const soak = async (behaviours?: ReadonlyMap<number, Behaviour>): Promise<void> => {
  await world.report(behaviours);
  await world.tick();
  world.advance(11);
  await world.report(behaviours);
  await world.tick();
};

describe('a staged rollout', () => {
  it('takes a fleet through four waves, then moves the fleet and lifts the pins', async () => {
    world = await createRolloutWorld(20);
    const id = await start([{ percent: 1 }, { percent: 10 }, { percent: 50 }, { percent: 100 }]);
    // 1 %, 10 %, 50 % and 100 % of 20 devices: 1, then 1 more, 8 more, the last 10.
    const expected = [1, 2, 10, 20];
    expect(await pinnedOn(world.v2)).toBe(expected[0]);
    for (const upTo of expected.slice(1)) {
      await soak();
      expect(await pinnedOn(world.v2)).toBe(upTo);
    }
    await soak();
    const done = await detail(id);
    expect(done.status).toBe('completed');
    expect(done.waves).toMatchObject([
      { status: 'passed', counts: { healthy: 1 } },
      { status: 'passed', counts: { healthy: 1 } },
      { status: 'passed', counts: { healthy: 8 } },
      { status: 'passed', counts: { healthy: 10 } },
    ]);
    const { rows } = await world.db.query<{ release: number }>(
      `SELECT "should_be_running__release" AS "release" FROM "application" WHERE "id" = $1`,
      [world.fleet],
    );
    expect(rows[0]?.release).toBe(world.v2);
    expect([...(await pins()).values()].every((pin) => pin === null)).toBe(true);
  });

  it('asks each device running the target healthily for one health-check run, and judges it', async () => {
    world = await createRolloutWorld(10);
    const id = await start([{ percent: 20 }, { percent: 100 }]);
    const wave = [...(await pins()).entries()]
      .filter(([, pin]) => pin === world.v2)
      .map(([device]) => device)
      .sort((a, b) => a - b);
    expect(wave).toHaveLength(2);
    await world.report();
    expect((await world.tick()).sort((a, b) => a - b)).toEqual(wave);
    // The run asked for (as the diagnostics feature starts it): one passes, one fails a check.
    const [passing = 0, failing = 0] = wave;
    for (const [device, success] of [
      [passing, true],
      [failing, false],
    ] as const) {
      await world.db.query(
        `INSERT INTO "diagnostic_run" ("device", "action", "status", "created_at", "finished_at", "checks")
         VALUES ($1, 'checks', 'done', $2, $2, $3)`,
        [device, world.now(), JSON.stringify([{ name: 'check_disk', success, status: 'ok' }])],
      );
    }
    world.advance(1);
    await world.report();
    // Asked once: a device with a run since its wave started is not asked again.
    expect(await world.tick()).toEqual([]);
    world.advance(6);
    await world.report();
    await world.tick();
    // One of the wave's two devices failing is over the 10 % budget: the wave halts and rolls back.
    const halted = await detail(id);
    expect(halted.status).toBe('halted');
    expect(halted.devices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: failing, reason: 'Health check failed: check_disk' }),
        expect.objectContaining({ id: passing, reason: 'Rolled back with its wave' }),
      ]),
    );
  });

  it('does not start the next wave before the soak time has passed', async () => {
    world = await createRolloutWorld(4);
    await start([{ percent: 50 }, { percent: 100 }]);
    await world.report();
    await world.tick();
    world.advance(9);
    await world.report();
    await world.tick();
    expect(await pinnedOn(world.v2)).toBe(2);
    world.advance(2);
    await world.tick();
    expect(await pinnedOn(world.v2)).toBe(4);
  });

  it('halts by itself and rolls the wave back when its devices crash-loop', async () => {
    world = await createRolloutWorld(20);
    const id = await start([{ percent: 10 }, { percent: 100 }]);
    const crashing = new Map<number, Behaviour>(
      world.devices.map((device): [number, Behaviour] => [device, 'crash-loop']),
    );
    await world.report(crashing);
    await world.tick();
    // A problem is a verdict only once it has lasted the grace.
    expect((await detail(id)).status).toBe('running');
    world.advance(6);
    await world.report(crashing);
    await world.tick();
    const halted = await detail(id);
    expect(halted).toMatchObject({ status: 'halted', rolled_back: true });
    expect(String(halted.halt_reason)).toContain('Wave 1: 2 of 2 devices failed');
    expect(halted.devices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          wave: 1,
          state: 'rolled_back',
          reason: 'A service is restarting in a loop',
        }),
      ]),
    );
    // The wave is back on v1, the rest were never touched.
    expect(await pinnedOn(world.v1)).toBe(2);
    expect(await pinnedOn(world.v2)).toBe(0);
    world.advance(60);
    await world.tick();
    expect(await pinnedOn(world.v2)).toBe(0);
  });

  it('halts on a failing health check, an offline device or a metric over its limit', async () => {
    world = await createRolloutWorld(3);
    const id = await start([{ percent: 100 }], { maxTemperatureC: 80, rollbackOnHalt: false });
    const [a, b, c] = world.devices;
    const faults = new Map<number, Behaviour>([
      [a ?? 0, 'failing-check'],
      [b ?? 0, 'hot'],
      [c ?? 0, 'offline'],
    ]);
    await world.report(faults);
    await world.tick();
    world.advance(30);
    await world.report(faults);
    await world.tick();
    const halted = await detail(id);
    expect(halted).toMatchObject({ status: 'halted', rolled_back: false });
    const reasons = (halted.devices as { reason: string }[]).map((device) => device.reason).sort();
    expect(reasons).toEqual([
      'A service fails its health check',
      'Offline',
      'Temperature at 95 °C (limit 80 °C)',
    ]);
    // Without rollback, the halted wave keeps the target.
    expect(await pinnedOn(world.v2)).toBe(3);
  });

  it('gives a device registering mid-rollout the release of the wave it falls in', async () => {
    world = await createRolloutWorld(6);
    await tagDevice(world.db, world.devices[0] ?? 0, 'ring', 'canary');
    const id = await start([{ tag: { key: 'ring', value: 'canary' } }, { percent: 100 }]);
    expect(await pinnedOn(world.v2)).toBe(1);
    const canary = await world.addDevice('late-canary');
    await tagDevice(world.db, canary, 'ring', 'canary');
    const plain = await world.addDevice('late-plain');
    await world.tick();
    const afterJoin = await pins();
    expect(afterJoin.get(canary)).toBe(world.v2);
    expect(afterJoin.get(plain)).toBeNull();
    await soak();
    expect((await pins()).get(plain)).toBe(world.v2);
    await soak();
    expect((await detail(id)).status).toBe('completed');
    expect((await pins()).get(plain)).toBeNull();
  });
});
