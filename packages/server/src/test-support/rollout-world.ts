import type { FastifyInstance } from 'fastify';
import type { Database } from '../infra/db/database.js';
import { registerAuth } from '../features/auth/register-auth.js';
import { registerRollouts } from '../features/rollouts/register-rollouts.js';
import { runRolloutTick } from '../features/rollouts/rollout-tick.js';
import { registerODataRoutes } from '../infra/odata/register-odata-routes.js';
import {
  addFleetMember,
  createDevice,
  createFleet,
  createOrganization,
  createRelease,
} from './fixtures.js';
import { createTestApp, createTestContext } from './test-context.js';
import { createTestDatabase } from './test-database.js';
import { bearer, signedInUser } from './user-sessions.js';

const minute = 60_000;

// How a simulated device behaves on the target release (the faults a bad release causes).
export type Behaviour = 'healthy' | 'crash-loop' | 'failing-check' | 'offline' | 'hot';

// A fleet on release "v1" with a built "v2", its devices acting out state reports on the
// server's fake clock, and the rollout routes with a tick the test drives.
export type RolloutWorld = {
  db: Database;
  app: FastifyInstance;
  fleet: number;
  v1: number;
  v2: number;
  token: string;
  devices: number[];
  now: () => Date;
  advance: (minutes: number) => void;
  // The scheduler's tick; answers the devices it would ask to run their health checks.
  tick: () => Promise<number[]>;
  addDevice: (name: string) => Promise<number>;
  // Every device reports what its pin (or the fleet) says, acting out its behaviour on v2.
  report: (behaviours?: ReadonlyMap<number, Behaviour>) => Promise<void>;
  call: (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: object,
    token?: string,
  ) => Promise<{
    statusCode: number;
    // The text of the answer (errors are plain text).
    body: string;
    json: () => Record<string, unknown>;
  }>;
  signIn: (username: string, role?: string) => Promise<string>;
  close: () => Promise<void>;
};

export const createRolloutWorld = async (deviceCount: number): Promise<RolloutWorld> => {
  const db = await createTestDatabase();
  let clock = new Date('2026-06-01T10:00:00.000Z');
  const ctx = createTestContext(db, { now: () => clock });
  const app = await createTestApp(
    ctx,
    (instance, context) =>
      registerAuth(instance, context, { captcha: { verify: async () => true } }),
    (instance, context) => registerRollouts(instance, context, { schedule: () => () => undefined }),
    (instance, context) => {
      registerODataRoutes(instance, context);
    },
  );
  const organization = await createOrganization(db, 'Rollers');
  const fleet = (await createFleet(db, organization, 'Wavy')).id;
  const v1 = await createRelease(db, fleet, 'a'.repeat(32));
  const v2 = await createRelease(db, fleet, 'b'.repeat(32), { semver: [2, 0, 0] });
  await db.query(`UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1`, [
    fleet,
    v1,
  ]);
  const { rows } = await db.query<{ id: number }>(
    `WITH s AS (INSERT INTO "service" ("application", "service_name") VALUES ($1, 'main') RETURNING "id")
     INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "status")
     SELECT s."id", 'registry/main:' || r, 'success' FROM s, unnest($2::integer[]) AS r RETURNING "id"`,
    [fleet, [v1, v2]],
  );
  const images = new Map([
    [v1, rows[0]?.id ?? 0],
    [v2, rows[1]?.id ?? 0],
  ]);
  const devices: number[] = [];
  const addDevice = async (name: string): Promise<number> => {
    const id = (await createDevice(db, fleet, name)).id;
    devices.push(id);
    return id;
  };
  for (let index = 0; index < deviceCount; index += 1) await addDevice(`dev-${index}`);
  const signIn = async (username: string, role = 'developer'): Promise<string> => {
    const user = await signedInUser(db, app, username);
    await addFleetMember(db, user.id, fleet, role);
    return user.token;
  };
  const token = await signIn('dora');

  const report = async (behaviours: ReadonlyMap<number, Behaviour> = new Map()): Promise<void> => {
    const { rows: targets } = await db.query<{ id: number; release: number }>(
      `SELECT d."id", coalesce(d."is_pinned_on__release", a."should_be_running__release") AS "release"
         FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
        WHERE a."id" = $1`,
      [fleet],
    );
    for (const { id, release } of targets) {
      const behaviour = release === v2 ? (behaviours.get(id) ?? 'healthy') : 'healthy';
      if (behaviour === 'offline') continue;
      const status =
        behaviour === 'crash-loop'
          ? 'Starting'
          : behaviour === 'failing-check'
            ? 'Unhealthy'
            : 'Running';
      await db.query(
        `UPDATE "device" SET "last_contact_at" = $2, "is_running__release" = $3,
                "update_status" = 'done', "cpu_temp" = $4 WHERE "id" = $1`,
        [id, clock, release, behaviour === 'hot' ? 95 : 45],
      );
      await db.query(`DELETE FROM "image_install" WHERE "device" = $1`, [id]);
      await db.query(
        `INSERT INTO "image_install" ("device", "installs__image", "status", "is_provided_by__release")
         VALUES ($1, $2, $3, $4)`,
        [id, images.get(release) ?? 0, status, release],
      );
    }
  };

  return {
    db,
    app,
    fleet,
    v1,
    v2,
    token,
    devices,
    now: () => clock,
    advance: (minutes) => {
      clock = new Date(clock.getTime() + minutes * minute);
    },
    tick: () => runRolloutTick(db, clock),
    addDevice,
    report,
    call: async (method, url, payload, as = token) => {
      const response = await app.inject({
        method,
        url,
        headers: bearer(as),
        ...(payload === undefined ? {} : { payload }),
      });
      return {
        statusCode: response.statusCode,
        body: response.body,
        json: () => response.json<Record<string, unknown>>(),
      };
    },
    signIn,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
};
