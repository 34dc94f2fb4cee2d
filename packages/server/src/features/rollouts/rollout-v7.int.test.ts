import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOrganizationMember,
  createFleet,
  createOrganization,
} from '../../test-support/fixtures.js';
import { createRolloutWorld, type RolloutWorld } from '../../test-support/rollout-world.js';
import { signedInUser } from '../../test-support/user-sessions.js';

// Rollouts as /v7 resources (flotilla_rollout and its waves, enrolled devices and timeline): read
// under the shared table's fleet rules, never written through /v7 (the decisions are /rollouts/v1
// routes). The outsider administers another organization with a fleet of its own.

let world: RolloutWorld;
let rollout: number;
let observer: string;
let outsider: string;

const resources = [
  'flotilla_rollout',
  'flotilla_rollout_wave',
  'flotilla_rollout_device',
  'flotilla_rollout_event',
] as const;

const read = async (url: string, token?: string) => {
  const response = await world.call('GET', url, undefined, token);
  expect(response.statusCode, url).toBe(200);
  return response.json().d as Record<string, unknown>[];
};

const status = async (): Promise<string | undefined> =>
  (
    await world.db.query<{ status: string }>(
      `SELECT "status" FROM "flotilla_rollout" WHERE "id" = $1`,
      [rollout],
    )
  ).rows[0]?.status;

beforeAll(async () => {
  world = await createRolloutWorld(4);
  const started = await world.call('POST', `/rollouts/v1/fleets/${world.fleet}/rollouts`, {
    targetRelease: world.v2,
    waves: [{ percent: 50 }, { percent: 100 }],
  });
  rollout = Number(started.json().id);
  observer = await world.signIn('olga', 'observer');
  const stranger = await signedInUser(world.db, world.app, 'stan');
  const otherOrganization = await createOrganization(world.db, 'Elsewhere');
  await addOrganizationMember(world.db, stranger.id, otherOrganization, 'administrator');
  await createFleet(world.db, otherOrganization, 'Theirs');
  outsider = stranger.token;
});
afterAll(async () => {
  await world.close();
});

describe('rollouts on /v7', () => {
  it('serves a rollout with its waves, enrolled devices and timeline to a member of its fleet', async () => {
    const [row] = await read(
      `/v7/flotilla_rollout(${rollout})?$expand=flotilla_rollout_wave($orderby=position),flotilla_rollout_device,flotilla_rollout_event`,
    );
    expect(row).toMatchObject({
      id: rollout,
      status: 'running',
      current_wave: 1,
      application: { __id: world.fleet },
      target_release: { __id: world.v2 },
    });
    expect(row?.flotilla_rollout_wave).toMatchObject([
      { position: 1, status: 'soaking', spec: { percent: 50 } },
      { position: 2, status: 'pending' },
    ]);
    expect(row?.flotilla_rollout_device).toHaveLength(4);
    expect(row?.flotilla_rollout_event).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'wave_started' })]),
    );
  });

  it('reads a wave by its natural key', async () => {
    const [wave] = await read(`/v7/flotilla_rollout_wave(rollout=${rollout},position=2)`);
    expect(wave).toMatchObject({ position: 2, status: 'pending', rollout: { __id: rollout } });
  });

  it('lets an observer of the fleet read every rollout resource', async () => {
    for (const resource of resources) {
      expect((await read(`/v7/${resource}`, observer)).length, resource).toBeGreaterThan(0);
    }
  });

  it('shows a member of another organization nothing', async () => {
    for (const resource of resources) {
      expect(await read(`/v7/${resource}`, outsider), resource).toEqual([]);
    }
    expect(await read(`/v7/flotilla_rollout(${rollout})`, outsider)).toEqual([]);
    const filtered = await read(
      `/v7/flotilla_rollout_device?$filter=rollout/application eq ${world.fleet}`,
      outsider,
    );
    expect(filtered).toEqual([]);
  });

  it('refuses every write, also to the developer who may take every decision', async () => {
    const attempts = [
      world.call('PATCH', `/v7/flotilla_rollout(${rollout})`, { status: 'aborted' }),
      world.call('POST', '/v7/flotilla_rollout', {
        application: world.fleet,
        from_release: world.v1,
        target_release: world.v2,
      }),
      world.call('PATCH', `/v7/flotilla_rollout_device?$filter=rollout eq ${rollout}`, {
        state: 'healthy',
      }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
    expect(await status()).toBe('running');
    const states = await read(`/v7/flotilla_rollout_device?$select=state`);
    expect(states.every((row) => row.state !== 'healthy')).toBe(true);
  });
});
