import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { buildModel } from '../../model/build-model.js';
import type { ResourceDefinition } from '../../model/model-types.js';
import { v7Definitions, v7ResourceSynonyms } from '../../model/v7-model.js';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
  tagDevice,
  type UserFixture,
} from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';

// A computed field that sleeps: a request whose SQL is slow on a tiny database.
const napSeconds = 60;
const nap = {
  type: 'boolean' as const,
  computed: () => `(SELECT true FROM pg_sleep(${napSeconds}))`,
};
const withNap = (definition: ResourceDefinition | undefined): ResourceDefinition => {
  if (!definition) throw new Error('missing definition');
  return { ...definition, fields: { ...definition.fields, nap } };
};
const slowModel = buildModel(
  {
    ...v7Definitions,
    cpu_architecture: withNap(v7Definitions.cpu_architecture),
    device_tag: withNap(v7Definitions.device_tag),
  },
  v7ResourceSynonyms,
);

// Far above what a fast statement takes on a busy machine, far below the nap.
const timeoutMs = 1_000;

// Polls (no fixed sleep as proof) until `check` holds or the deadline passes.
const eventually = async (check: () => Promise<boolean>, deadlineMs = 20_000): Promise<void> => {
  const until = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('statement limits of /v7 requests', () => {
  let db: Database;
  let api: ODataTestApp;
  let tagId: number;
  let alice: UserFixture;

  const sleepingStatements = async (): Promise<number> => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*) AS n FROM pg_stat_activity
       WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()
         AND query LIKE '%pg_sleep(${napSeconds})%'`,
    );
    return rows[0]?.n ?? 0;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db, { model: slowModel, config: { statementTimeoutMs: timeoutMs } });
    alice = await createUser(db, 'alice');
    api.actors.set('alice', userActor(alice));
    const organization = await createOrganization(db, 'Acme');
    await addOrganizationMember(db, alice.userId, organization, 'administrator');
    const fleet = await createFleet(db, organization, 'Greenhouse');
    const device = await createDevice(db, fleet.id, 'sensor');
    tagId = await tagDevice(db, device.id, 'room', 'kitchen');
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('cancels a read running over the statement timeout and answers 400 naming the limit', async () => {
    const response = await api.get('/cpu_architecture?$select=slug,nap&$top=1', 'alice');
    expect(response.status).toBe(400);
    expect(response.text).toBe(
      `The request ran longer than the ${timeoutMs} ms limit per database statement; narrow it with $filter or $top, or expand less`,
    );
    await eventually(async () => (await sleepingStatements()) === 0);
  });

  it('rolls a write back when one of its statements runs over the timeout', async () => {
    const response = await api.send(
      'PATCH',
      '/device_tag?$filter=nap eq true',
      { value: 'attic' },
      'alice',
    );
    expect(response.status).toBe(400);
    expect(response.text).toMatch(`${timeoutMs} ms limit`);
    const { rows } = await db.query<{ value: string }>(
      'SELECT "value" FROM "device_tag" WHERE "id" = $1',
      [tagId],
    );
    expect(rows).toEqual([{ value: 'kitchen' }]);
  });

  it('cancels the database statement when the client disconnects', async () => {
    // A timeout far beyond the test's deadline: only the disconnect can end the statement.
    const patient = createODataTestApp(db, {
      model: slowModel,
      config: { statementTimeoutMs: 3_600_000 },
    });
    patient.actors.set('alice', userActor(alice));
    await patient.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = patient.app.server.address();
      if (!address || typeof address === 'string') throw new Error('not listening on TCP');
      const request = http.get({
        host: '127.0.0.1',
        port: address.port,
        path: '/v7/cpu_architecture?$select=slug,nap&$top=1',
        headers: { authorization: 'Bearer alice' },
      });
      const settled = new Promise<void>((resolve) => {
        request.on('error', () => resolve());
        request.on('response', () => resolve());
      });
      await eventually(async () => (await sleepingStatements()) === 1);
      request.destroy();
      await settled;
      await eventually(async () => (await sleepingStatements()) === 0);
    } finally {
      await patient.app.close();
    }
  });

  it('leaves fast requests alone', async () => {
    const response = await api.get("/cpu_architecture?$select=slug&$filter=slug eq 'aarch64'");
    expect(response).toMatchObject({ status: 200, body: { d: [{ slug: 'aarch64' }] } });
  });
});
