import { odataBatch } from '@flotilla/shared/constants/limits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOrganizationMember,
  createDevice,
  createFleet,
  createOrganization,
  createUser,
} from '../../test-support/fixtures.js';
import {
  createODataTestApp,
  type ODataTestApp,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import type { Database } from '../db/database.js';

// `POST /v7/$batch` answers each read exactly as its own GET would, for whoever sends it.

type BatchAnswer = {
  responses: { id: string; status: number; headers: Record<string, string>; body: unknown }[];
};

const reads = [
  `/application?$select=id,app_name&$orderby=id asc`,
  `/application?$select=id&$orderby=id asc&$expand=owns__device/$count($filter=overall_status eq 'operational')`,
  `/device/$count`,
  `/device?$select=uuid&$orderby=id asc&$expand=belongs_to__application($select=app_name)`,
];

describe('POST /v7/$batch', () => {
  let db: Database;
  let api: ODataTestApp;
  // Statements the app sent to the database, to see that a batch's reads went as one.
  const statements: string[] = [];

  const batch = (body: unknown, as?: string) => api.send('POST', '/$batch', body, as);
  const getsOf = (urls: string[]) => ({
    requests: urls.map((url, index) => ({ id: `r${index}`, method: 'GET', url })),
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    const counted: Database = {
      ...db,
      query: (sql, params, options) => {
        statements.push(sql);
        return db.query(sql, params, options);
      },
    };
    api = createODataTestApp(counted);
    const alice = await createUser(db, 'alice');
    const mallory = await createUser(db, 'mallory');
    api.actors.set('alice', userActor(alice));
    api.actors.set('mallory', userActor(mallory));
    const organization = await createOrganization(db, 'Batch');
    await addOrganizationMember(db, alice.userId, organization, 'administrator');
    const north = await createFleet(db, organization, 'north');
    const south = await createFleet(db, organization, 'south');
    await createDevice(db, north.id, 'one', { isOnline: true });
    await createDevice(db, south.id, 'two');
    // Mallory's own organization, which Alice cannot see.
    const other = await createOrganization(db, 'Elsewhere');
    await addOrganizationMember(db, mallory.userId, other, 'administrator');
    await createDevice(db, (await createFleet(db, other, 'hidden')).id, 'three');
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  it('answers every read as its own GET would, in order, for each caller', async () => {
    for (const as of ['alice', 'mallory', undefined]) {
      const response = await batch(
        getsOf(reads.map((path, index) => (index % 2 === 0 ? `/v7${path}` : path.slice(1)))),
        as,
      );
      expect(response.status).toBe(200);
      const { responses } = response.body as BatchAnswer;
      expect(responses.map((entry) => entry.id)).toEqual(reads.map((_, index) => `r${index}`));
      for (const [index, path] of reads.entries()) {
        const alone = await api.get(path, as);
        expect(responses[index]).toEqual(
          alone.status === 200
            ? {
                id: `r${index}`,
                status: 200,
                headers: { 'content-type': 'application/json' },
                body: alone.body,
              }
            : {
                id: `r${index}`,
                status: alone.status,
                headers: { 'content-type': 'text/plain; charset=utf-8' },
                body: alone.text,
              },
        );
      }
    }
    // The batch saw what each caller may see, not more: Alice two fleets, Mallory one.
    const counts = async (as: string) =>
      ((await batch(getsOf(['device/$count']), as)).body as BatchAnswer).responses[0]?.body;
    expect(await counts('alice')).toEqual({ d: 2 });
    expect(await counts('mallory')).toEqual({ d: 1 });
  });

  it('runs the reads as two combined statements', async () => {
    statements.length = 0;
    const response = await batch(getsOf(reads.map((path) => path.slice(1))), 'alice');
    expect(response.status).toBe(200);
    expect(statements).toHaveLength(2);
    for (const statement of statements) {
      expect(statement).toMatch(/^SELECT \(SELECT .* AS "c0", \(SELECT .* AS "c1"$/s);
    }
    const { responses } = response.body as BatchAnswer;
    expect(responses.map((entry) => entry.status)).toEqual([200, 200, 200, 200]);
    expect(responses[2]?.body).toEqual({ d: 2 });
  });

  it('answers a read that fails while it runs with its own error, and the others', async () => {
    // Dividing by zero fails only when PostgreSQL evaluates it: the combined statement fails,
    // and each read then runs alone.
    const failing = `/device?$filter=id div 0 eq 1`;
    const alone = await api.get(failing, 'alice');
    expect(alone.status).toBe(400);
    const response = await batch(
      getsOf(['device/$count', failing.slice(1), 'application/$count']),
      'alice',
    );
    expect(response.status).toBe(200);
    const [first, failed, last] = (response.body as BatchAnswer).responses;
    expect(first).toMatchObject({ status: 200, body: { d: 2 } });
    expect(failed).toEqual({
      id: 'r1',
      status: 400,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: alone.text,
    });
    expect(last).toMatchObject({ status: 200, body: { d: 2 } });
  });

  it("gives a bad read its own error, as its GET's, and answers the others", async () => {
    const bad = `/application?$filter=no_such_field eq 1`;
    const alone = await api.get(bad, 'alice');
    expect(alone.status).toBe(400);
    const response = await batch(getsOf(['device/$count', bad.slice(1)]), 'alice');
    expect(response.status).toBe(200);
    const [good, failed] = (response.body as BatchAnswer).responses;
    expect(good).toMatchObject({ status: 200, body: { d: 2 } });
    expect(failed).toEqual({
      id: 'r1',
      status: 400,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: alone.text,
    });
  });

  it('refuses what is not a batch of /v7 reads with a 400 naming the problem', async () => {
    const refusals: [unknown, RegExp][] = [
      [{}, /requests/],
      [{ requests: [] }, /requests/],
      [{ requests: [{ id: 'a', method: 'PATCH', url: 'device' }] }, /only GET requests/],
      [{ requests: [{ id: 'a', method: 'GET', url: '/actor/v1/whoami' }] }, /only \/v7 reads/],
      [{ requests: [{ id: 'a', method: 'GET', url: 'http://elsewhere/v7/device' }] }, /only \/v7/],
      [{ requests: [{ id: 'a', method: 'GET', url: '$batch' }] }, /only \/v7 reads/],
      [
        {
          requests: [
            { id: 'a', method: 'GET', url: 'device' },
            { id: 'a', method: 'GET', url: 'device' },
          ],
        },
        /ids must be unique/,
      ],
      [
        getsOf(Array.from({ length: odataBatch.maxRequests + 1 }, () => 'device/$count')),
        /requests/,
      ],
    ];
    for (const [body, message] of refusals) {
      const response = await batch(body, 'alice');
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.text).toMatch(message);
    }
    // At the limit it is answered.
    const full = await batch(
      getsOf(Array.from({ length: odataBatch.maxRequests }, () => 'device/$count')),
      'alice',
    );
    expect((full.body as BatchAnswer).responses).toHaveLength(odataBatch.maxRequests);
  });
});
