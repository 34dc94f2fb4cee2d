import { afterEach, describe, expect, it } from 'vitest';
import { createFleet, createOrganization, createRelease } from '../../test-support/fixtures.js';
import { createRolloutWorld, type RolloutWorld } from '../../test-support/rollout-world.js';

// The decisions users take on a rollout (pause, resume, skip a gate, abort) and the plans the
// API refuses, with the fleet left untouched.

let world: RolloutWorld;
afterEach(async () => {
  await world.close();
});

const gates = { soakMinutes: 10, failureBudgetPercent: 0, problemGraceMinutes: 0 };
const twoWaves = [{ percent: 50 }, { percent: 100 }];

const start = async (): Promise<number> => {
  const response = await world.call('POST', `/rollouts/v1/fleets/${world.fleet}/rollouts`, {
    targetRelease: world.v2,
    waves: twoWaves,
    gates,
  });
  expect(response.statusCode).toBe(201);
  return Number(response.json().id);
};

const command = (id: number, name: string, payload?: object) =>
  world.call('POST', `/rollouts/v1/rollouts/${id}/${name}`, payload ?? {});

const pinnedOnTarget = async (): Promise<number> =>
  (
    await world.db.query<{ n: number }>(
      `SELECT count(*)::integer AS "n" FROM "device" WHERE "is_pinned_on__release" = $1`,
      [world.v2],
    )
  ).rows[0]?.n ?? -1;

describe('rollout decisions', () => {
  it('pauses (no wave starts meanwhile), resumes, and aborts back to the fleet release', async () => {
    world = await createRolloutWorld(4);
    const id = await start();
    expect((await command(id, 'pause')).json().status).toBe('paused');
    await world.report();
    await world.tick();
    world.advance(30);
    await world.tick();
    expect(await pinnedOnTarget()).toBe(2);
    expect((await command(id, 'pause')).statusCode).toBe(409);
    expect((await command(id, 'resume')).json().status).toBe('running');
    await world.report();
    await world.tick();
    world.advance(11);
    await world.tick();
    expect(await pinnedOnTarget()).toBe(4);
    const aborted = await command(id, 'abort');
    expect(aborted.json()).toMatchObject({ status: 'aborted' });
    expect(await pinnedOnTarget()).toBe(0);
    expect((await command(id, 'resume')).statusCode).toBe(409);
    const timeline = (aborted.json().events as { kind: string; by: string | null }[]).map(
      (event) => `${event.kind}:${event.by ?? ''}`,
    );
    expect(timeline).toEqual(
      expect.arrayContaining(['paused:dora', 'resumed:dora', 'aborted:dora', 'wave_passed:']),
    );
  });

  it('continues a halted rollout past its gate only with a reason', async () => {
    world = await createRolloutWorld(4);
    const response = await world.call('POST', `/rollouts/v1/fleets/${world.fleet}/rollouts`, {
      targetRelease: world.v2,
      waves: twoWaves,
      gates: { ...gates, rollbackOnHalt: false },
    });
    const id = Number(response.json().id);
    const offline = new Map(world.devices.map((device) => [device, 'offline' as const]));
    await world.report(offline);
    await world.tick();
    expect((await command(id, 'resume')).statusCode).toBe(409);
    const noReason = await command(id, 'skip-gate', { reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('Say why the gate is skipped');
    const skipped = await command(id, 'skip-gate', { reason: 'Lab devices unplugged' });
    expect(skipped.json()).toMatchObject({ status: 'running', current_wave: 2 });
    expect(await pinnedOnTarget()).toBe(4);
  });

  it('refuses to skip the gate of a wave it rolled back', async () => {
    world = await createRolloutWorld(2);
    const id = await start();
    const offline = new Map(world.devices.map((device) => [device, 'offline' as const]));
    await world.report(offline);
    await world.tick();
    expect((await command(id, 'skip-gate', { reason: 'try' })).statusCode).toBe(409);
  });
});

describe('plans the API refuses', () => {
  const refuse = async (body: object, message: string, status = 400): Promise<void> => {
    const response = await world.call('POST', `/rollouts/v1/fleets/${world.fleet}/rollouts`, body);
    expect(response.statusCode).toBe(status);
    expect(response.body).toContain(message);
  };

  it('answers 4xx with a clear message and writes nothing', async () => {
    world = await createRolloutWorld(2);
    const other = await createFleet(world.db, await createOrganization(world.db, 'Other'), 'Else');
    const foreign = await createRelease(world.db, other.id, 'c'.repeat(32));
    const failed = await createRelease(world.db, world.fleet, 'd'.repeat(32), { status: 'failed' });
    const plan = (waves: object[], targetRelease = world.v2) => ({ targetRelease, waves });
    await refuse(plan([{ percent: 50 }, { percent: 10 }, { percent: 100 }]), 'must rise');
    await refuse(plan([{ percent: 50 }]), 'reach 100 %');
    await refuse(
      plan([{ percent: 10 }, { tag: { key: 'ring' } }, { percent: 100 }]),
      'come before',
    );
    await refuse(plan([]), 'at least one wave');
    await refuse(plan([{ percent: 100, tag: { key: 'ring' } }]), 'either a percentage');
    await refuse(plan([{ percent: 100.5 }]), 'whole numbers');
    await refuse(
      plan([{ devices: ['fffffff0'] }, { percent: 100 }]),
      'Device fffffff0 is not in this fleet',
    );
    await refuse(plan([{ percent: 100 }], foreign), 'does not belong to this fleet');
    await refuse(plan([{ percent: 100 }], failed), 'did not build successfully');
    await refuse(plan([{ percent: 100 }], world.v1), 'already runs this release');
    const { rows } = await world.db.query<{ n: number }>(
      `SELECT count(*)::integer AS "n" FROM "flotilla_rollout"`,
    );
    expect(rows[0]?.n).toBe(0);
    await start();
    await refuse(plan([{ percent: 100 }]), 'already has a rollout in progress', 409);
  });

  it('previews the expected device count of each wave', async () => {
    world = await createRolloutWorld(10);
    const response = await world.call('POST', `/rollouts/v1/fleets/${world.fleet}/rollout-plan`, {
      targetRelease: world.v2,
      waves: [{ percent: 1 }, { percent: 10 }, { percent: 50 }, { percent: 100 }],
    });
    expect(response.json()).toEqual({ counts: [1, 0, 4, 5], devices: 10 });
  });
});
