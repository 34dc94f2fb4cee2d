import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRolloutWorld, type RolloutWorld } from '../../test-support/rollout-world.js';
import { signedInUser } from '../../test-support/user-sessions.js';

// Each rule of the rollout rows of the shared permission table, from the side of a caller
// without it: an outsider sees no fleet and no rollout; an observer reads but may not pause; an
// operator pauses but may not start, resume, skip a gate or abort. Nothing is written for them.

let world: RolloutWorld;
let rollout: number;
let outsider: string;
let observer: string;
let operator: string;

const plan = () => ({ targetRelease: world.v2, waves: [{ percent: 50 }, { percent: 100 }] });

const state = async (): Promise<string> =>
  (
    await world.db.query<{ status: string }>(
      `SELECT "status" FROM "flotilla_rollout" WHERE "id" = $1`,
      [rollout],
    )
  ).rows[0]?.status ?? 'none';

const rolloutCount = async (): Promise<number> =>
  (await world.db.query<{ n: number }>(`SELECT count(*)::integer AS "n" FROM "flotilla_rollout"`))
    .rows[0]?.n ?? -1;

beforeAll(async () => {
  world = await createRolloutWorld(2);
  rollout = Number(
    (await world.call('POST', `/rollouts/v1/fleets/${world.fleet}/rollouts`, plan())).json().id,
  );
  outsider = (await signedInUser(world.db, world.app, 'otto')).token;
  observer = await world.signIn('olive', 'observer');
  operator = await world.signIn('oskar', 'operator');
});
afterAll(async () => {
  await world.close();
});

describe('rollout permissions', () => {
  it('shows an outsider neither the fleet nor the rollout', async () => {
    const fleetUrl = `/rollouts/v1/fleets/${world.fleet}`;
    for (const [method, url] of [
      ['GET', `${fleetUrl}/rollouts`],
      ['POST', `${fleetUrl}/rollouts`],
      ['POST', `${fleetUrl}/rollout-plan`],
      ['GET', `/rollouts/v1/rollouts/${rollout}`],
      ['POST', `/rollouts/v1/rollouts/${rollout}/pause`],
      ['POST', `/rollouts/v1/rollouts/${rollout}/abort`],
    ] as const) {
      const response = await world.call(
        method,
        url,
        method === 'POST' ? plan() : undefined,
        outsider,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await state()).toBe('running');
  });

  it('lets nobody in without a session', async () => {
    const response = await world.app.inject({
      method: 'GET',
      url: `/rollouts/v1/rollouts/${rollout}`,
    });
    expect(response.statusCode).toBe(401);
  });

  it('lets an observer read but not pause', async () => {
    const read = await world.call('GET', `/rollouts/v1/rollouts/${rollout}`, undefined, observer);
    expect(read.statusCode).toBe(200);
    const pause = await world.call('POST', `/rollouts/v1/rollouts/${rollout}/pause`, {}, observer);
    expect(pause.statusCode).toBe(401);
    expect(pause.body).toContain('may not pause rollouts');
    expect(await state()).toBe('running');
  });

  it('lets an operator pause (the project answers 401 to a missing right), but not start, resume, skip a gate or abort', async () => {
    const url = `/rollouts/v1/rollouts/${rollout}`;
    const start = await world.call(
      'POST',
      `/rollouts/v1/fleets/${world.fleet}/rollouts`,
      plan(),
      operator,
    );
    expect(start.statusCode).toBe(401);
    expect(await rolloutCount()).toBe(1);
    expect((await world.call('POST', `${url}/pause`, {}, operator)).statusCode).toBe(200);
    expect(await state()).toBe('paused');
    for (const name of ['resume', 'skip-gate', 'abort']) {
      const response = await world.call('POST', `${url}/${name}`, { reason: 'x' }, operator);
      expect(response.statusCode, name).toBe(401);
    }
    expect(await state()).toBe('paused');
    // The developer who started it holds every right.
    expect((await world.call('POST', `${url}/abort`)).statusCode).toBe(200);
  });
});
