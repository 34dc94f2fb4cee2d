import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7Model } from '../../model/v7-model.js';
import * as fx from '../../test-support/fixtures.js';
import { odataCall } from '../../test-support/fuzz/odata-requests.js';
import { createRandom } from '../../test-support/fuzz/prng.js';
import {
  createODataTestApp,
  deviceActor,
  type ODataTestApp,
  provisioningActor,
  userActor,
} from '../../test-support/odata-test-app.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { type Database, openDatabase } from '../db/database.js';
import { normalizeODataPath } from './parse-request.js';
import { probeText, renderShape, requestShape } from './request-shape.js';

// The compiled-statement cache against the engine without it: createODataTestApp answers every
// get() a second time without the cache and fails on any difference (status or body), so each
// request below is such a comparison; requests of a shape the cache already keeps are answered
// from it with their own literals and caller.

describe('the compiled-statement cache', () => {
  let db: Database;
  let api: ODataTestApp;
  const callers = ['alice', 'bob', 'root', 'device', 'provisioning', undefined];
  const ids: number[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    api = createODataTestApp(db);
    const alice = await fx.createUser(db, 'alice');
    const bob = await fx.createUser(db, 'bob');
    const root = await fx.createUser(db, 'root');
    const acme = await fx.createOrganization(db, 'Acme');
    const other = await fx.createOrganization(db, 'Other');
    await fx.addOrganizationMember(db, alice.userId, acme, 'administrator');
    await fx.addOrganizationMember(db, bob.userId, other, 'administrator');
    const greenhouse = await fx.createFleet(db, acme, 'Greenhouse');
    const warehouse = await fx.createFleet(db, acme, 'Warehouse', { isPublic: true });
    const lab = await fx.createFleet(db, other, 'Lab');
    await fx.addFleetMember(db, bob.userId, greenhouse.id, 'observer');
    const devices: fx.DeviceFixture[] = [];
    for (const [index, fleet] of [greenhouse, greenhouse, warehouse, lab, lab].entries()) {
      const device = await fx.createDevice(db, fleet.id, `device-${index}`, {
        isOnline: index % 2 === 0,
      });
      devices.push(device);
      ids.push(device.id);
      await fx.tagDevice(db, device.id, 'room', `room-${index % 3}`);
    }
    ids.push(greenhouse.id, warehouse.id, lab.id);
    await db.query(`UPDATE "device" SET "is_connected_to_vpn" = "id" % 3 <> 0`);
    await fx.createRelease(db, greenhouse.id, 'abc123');
    const [first] = devices;
    if (!first) throw new Error('fixtures');
    api.actors.set('alice', userActor(alice));
    api.actors.set('bob', userActor(bob));
    api.actors.set('root', userActor(root, ['admin.home']));
    api.actors.set('device', deviceActor(first, greenhouse.id));
    api.actors.set('provisioning', provisioningActor(lab));
  });

  afterAll(async () => {
    await api.app.close();
    await db.close();
  });

  // Each request as every caller: the same shape for callers of one permission shape.
  const asEveryone = async (urls: readonly string[]): Promise<void> => {
    for (const url of urls) {
      for (const caller of callers) await api.get(url, caller);
    }
  };

  it('answers a corpus as the engine does without it, each shape with other literals too', async () => {
    const [a = 0, b = 0, c = 0] = ids;
    const before = api.reads.stats().hits;
    const corpus = (n: number, text: string, on: boolean): string[] => [
      `/device?$select=id,device_name,overall_status,is_online&$filter=id eq ${n}`,
      `/device(${n})?$select=device_name,api_heartbeat_state&$expand=device_tag($select=value;$filter=tag_key eq 'room')`,
      `/device?$filter=device_name eq '${text}' or startswith(device_name,'${text}')&$orderby=id desc&$top=${n}&$skip=${n % 2}`,
      `/device?$filter=id in (${a},${b},${n})&$select=id&$orderby=id`,
      `/device?$filter=device_name in ('${text}','device-1')&$select=id`,
      `/device/$count?$filter=is_online eq ${String(on)}`,
      `/device/$count?$filter=overall_status eq '${on ? 'operational' : 'reduced-functionality'}'`,
      `/application?$select=id&$filter=is_directly_accessible_by__user/any(dau:1 eq 1)&$expand=owns__device/$count($filter=overall_status eq '${on ? 'configuring' : 'disconnected'}')&$orderby=id`,
      `/application(${c})?$select=app_name&$expand=owns__device($select=device_name;$filter=is_online eq ${String(on)} and id ge ${n};$orderby=device_name)`,
      `/device?$filter=device_tag/any(t:t/value eq '${text}') and created_at gt datetime'2001-01-0${(n % 9) + 1}T00:00:00Z'&$select=id`,
      `/device?$filter=cpu_usage add ${n} gt ${n}.5 or length(device_name) eq ${n}&$select=id`,
      `/device?$filter=api_heartbeat_state eq '${on ? 'online' : 'offline'}' and overall_status ne 'inactive'&$select=id&$orderby=id`,
      `/release?$filter=commit eq '${text}' or belongs_to__application eq ${n}&$select=commit`,
    ];
    await asEveryone(corpus(a, 'device-0', true));
    await asEveryone(corpus(b, "O'Brien", false));
    await asEveryone(corpus(c, 'room-1', true));
    // Most answers of the later rounds came from kept statements.
    expect(api.reads.stats().hits - before).toBeGreaterThan(100);
  });

  it('keeps literals of other kinds apart (whole numbers, other numbers, texts, lists)', async () => {
    const [a = 0, b = 0] = ids;
    const values = [`${a}`, `${a}.5`, `'${a}'`, '99999999999999999999', `${b}`, `${a - 1}.5`];
    for (const value of values) {
      await asEveryone([
        `/device?$select=id&$filter=id gt ${value}&$orderby=id`,
        `/device?$select=id&$filter=id in (${a},${value})&$orderby=id`,
        `/device?$select=id&$filter=device_name eq ${value} or id eq ${value}`,
      ]);
    }
  });

  it('answers random requests, and requests of their shapes with other literals, as without it', async () => {
    const random = createRandom(Number(process.env.FLOTILLA_FUZZ_SEED ?? 20_250_902));
    const before = api.reads.stats().hits;
    for (let index = 0; index < 300; index++) {
      const url = odataCall(random, v7Model, 'GET', ids).url.slice('/v7'.length);
      const pickCaller = (): string | undefined => callers[random.int(0, callers.length - 1)];
      const caller = pickCaller();
      await api.get(url, caller);
      const shape = requestShape(normalizeODataPath(url));
      if (!shape) continue;
      // The same shape with the probe values and with real ids where numbers go.
      await api.get(
        renderShape(
          shape,
          shape.literals.map((literal, at) => probeText(literal, at)),
        ),
        pickCaller(),
      );
      await api.get(
        renderShape(
          shape,
          shape.literals.map((literal) =>
            literal.kind === 'n' ? String(random.pick(ids)) : literal.text,
          ),
        ),
        caller,
      );
    }
    expect(api.reads.stats().hits - before).toBeGreaterThan(10);
  });

  it('answers a value the compiler refuses with its error, also in a kept shape', async () => {
    await api.get('/device?$select=id&$filter=cpu_usage gt 1.5', 'alice');
    const hits = api.reads.stats().hits;
    const response = await api.get(
      `/device?$select=id&$filter=cpu_usage gt ${'9'.repeat(400)}`,
      'alice',
    );
    expect(response.status).toBe(400);
    expect(api.reads.stats().hits).toBe(hits);
  });

  it('keeps at most the configured number of shapes', async () => {
    const small = createODataTestApp(db, { config: { odataCache: { enabled: true, size: 2 } } });
    small.actors.set('alice', api.actors.get('alice') ?? { kind: 'anonymous' });
    try {
      for (const field of ['id', 'uuid', 'device_name', 'note']) {
        await small.get(`/device?$select=${field}&$filter=id eq 1`, 'alice');
      }
      expect(small.reads.stats().shapes).toBe(2);
      await small.get('/device?$select=note&$filter=id eq 2', 'alice');
      expect(small.reads.stats().hits).toBe(1);
    } finally {
      await small.app.close();
    }
  });

  it('compiles every request when switched off', async () => {
    const off = createODataTestApp(db, { config: { odataCache: { enabled: false, size: 10 } } });
    off.actors.set('alice', api.actors.get('alice') ?? { kind: 'anonymous' });
    try {
      await off.get('/device?$select=id&$filter=id eq 1', 'alice');
      await off.get('/device?$select=id&$filter=id eq 2', 'alice');
      expect(off.reads.stats()).toEqual({ shapes: 0, hits: 0 });
    } finally {
      await off.app.close();
    }
  });

  it('runs kept reads as prepared statements', async () => {
    // One connection: the statements and pg_prepared_statements share its session.
    const single = openDatabase(db.url, { max: 1 });
    const app = createODataTestApp(single, { shadow: false });
    app.actors.set('alice', api.actors.get('alice') ?? { kind: 'anonymous' });
    try {
      for (const id of ids.slice(0, 3)) {
        expect((await app.get(`/device?$select=id&$filter=id eq ${id}`, 'alice')).status).toBe(200);
      }
      const { rows } = await single.query<{ name: string }>(
        'SELECT "name" FROM pg_prepared_statements',
        [],
        { timeoutMs: 10_000 },
      );
      expect(rows.map((row) => row.name)).toEqual([expect.stringMatching(/^v7_[0-9a-f]{32}$/)]);
    } finally {
      await app.app.close();
      await single.close();
    }
  });
});
