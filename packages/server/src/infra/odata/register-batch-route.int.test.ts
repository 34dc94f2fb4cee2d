import { odataBatch } from '@flotilla/shared/constants/limits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addFleetMember,
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
import type { Database, QueryOptions } from '../db/database.js';
import { deviceStatuses } from '@flotilla/shared/devices/device-statuses';

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
  // Whether each statement asked for a generic plan.
  const generic: boolean[] = [];

  const batch = (body: unknown, as?: string) => api.send('POST', '/$batch', body, as);
  const getsOf = (urls: string[]) => ({
    requests: urls.map((url, index) => ({ id: `r${index}`, method: 'GET', url })),
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    const counted: Database = {
      ...db,
      query: (sql, params, options?: QueryOptions) => {
        statements.push(sql);
        generic.push(options?.genericPlan === true);
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

  it("plans a member's fleet-list counts once per connection, answering as each GET would", async () => {
    // Morgan is a plain member of the organization with access to two of its three fleets;
    // every status counted, planned generically (the same plan for every caller), must still
    // count only the devices of Morgan's fleets.
    const morgan = await createUser(db, 'morgan');
    api.actors.set('morgan', userActor(morgan));
    const organization = await createOrganization(db, 'Counted');
    await addOrganizationMember(db, morgan.userId, organization, 'member');
    const seen: number[] = [];
    for (const name of ['east', 'west', 'closed']) {
      const fleet = await createFleet(db, organization, name);
      await createDevice(db, fleet.id, `${name}-on`, { isOnline: true });
      await createDevice(db, fleet.id, `${name}-off`);
      if (name !== 'closed') {
        await addFleetMember(db, morgan.userId, fleet.id, 'observer');
        seen.push(fleet.id);
      }
    }
    await createDevice(db, seen[0] ?? 0, 'east-on-too', { isOnline: true });
    const statuses = deviceStatuses;
    const paths = statuses.map(
      (status) =>
        `/application?$select=id&$filter=is_of__class eq 'fleet' and is_directly_accessible_by__user/any(dau:1 eq 1)` +
        `&$expand=owns__device/$count($filter=overall_status eq '${status}')`,
    );
    const aloneFor = (as: string) =>
      Promise.all(paths.map(async (path) => (await api.get(path, as)).body));
    const alone = await aloneFor('morgan');
    const mallorys = await aloneFor('mallory');
    // Past PostgreSQL's five custom plans of a statement on a connection, twice over.
    for (let round = 0; round < 12; round++) {
      statements.length = 0;
      generic.length = 0;
      const as = round % 3 === 2 ? 'mallory' : 'morgan';
      const response = await batch(getsOf(paths.map((path) => `/v7${path}`)), as);
      expect(response.status).toBe(200);
      // The seven counts as one read of the fleets, planned generically.
      expect(generic).toEqual([true]);
      expect(statements[0]).toContain('"owns__device@6"');
      const bodies = (response.body as BatchAnswer).responses.map((entry) => entry.body);
      expect(bodies).toEqual(as === 'mallory' ? mallorys : alone);
    }
    // Every device has one status: the seven counts add up to each visible fleet's devices.
    const totals = (bodies: unknown[]): Map<number, number> => {
      const sums = new Map<number, number>();
      for (const body of bodies) {
        for (const row of (body as { d: { id: number; owns__device: number }[] }).d) {
          sums.set(row.id, (sums.get(row.id) ?? 0) + row.owns__device);
        }
      }
      return sums;
    };
    expect(totals(alone)).toEqual(
      new Map([
        [seen[0], 3],
        [seen[1], 2],
      ]),
    );
    // Mallory's one fleet elsewhere, none of this organization's.
    expect([...totals(mallorys).values()]).toEqual([1]);
    // Encoded as the SDK sends them (the console's fleet list): one read too, the same answers.
    statements.length = 0;
    const encoded = await batch(
      getsOf(paths.map((path) => `/v7${path.replaceAll(' ', '%20').replaceAll("'", '%27')}`)),
      'morgan',
    );
    expect(statements).toHaveLength(1);
    expect((encoded.body as BatchAnswer).responses.map((entry) => entry.body)).toEqual(alone);
    // The seven counts' read as the batch sends it to the engine is still refused as a GET.
    const together = `${paths[0]?.split('&$expand=')[0] ?? ''}&$expand=${paths
      .map((path) => path.split('&$expand=')[1] ?? '')
      .join(',')}`;
    const refused = await api.get(together, 'morgan');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("'owns__device' is expanded twice");
    // A batch with rows other than counts keeps the plans chosen per request.
    generic.length = 0;
    await batch(getsOf(reads.map((path) => path.slice(1))), 'morgan');
    expect(generic).toEqual([false, false]);
    // Counts whose read together fails (one of them divides by zero): each read alone, the
    // failing one with its own error.
    const failing = paths[0]?.replace("overall_status eq 'operational'", 'id div 0 eq 1') ?? '';
    const mixed = await batch(
      getsOf([failing, ...paths.slice(1)].map((path) => `/v7${path}`)),
      'morgan',
    );
    const answers = (mixed.body as BatchAnswer).responses;
    expect(answers[0]?.status).toBe(400);
    expect(answers.slice(1).map((entry) => entry.body)).toEqual(alone.slice(1));
  });

  it('answers repeated counts of one read only inside a batch', async () => {
    const twice =
      "/application?$select=id&$expand=owns__device/$count($filter=overall_status eq 'inactive')," +
      "owns__device/$count($filter=overall_status eq 'operational')";
    const response = await api.get(twice, 'alice');
    expect(response.status).toBe(400);
    expect(response.text).toContain("'owns__device' is expanded twice");
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
