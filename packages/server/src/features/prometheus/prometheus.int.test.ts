import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { parseIpNetwork } from '@flotilla/shared/net/ip-networks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fx from '../../test-support/fixtures.js';
import { overallStatus } from '../../model/definitions/device-status.js';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';

const token = 'scrape-token-0123456789';

const loopback = parseIpNetwork('127.0.0.0/8');

describe('GET /metrics', () => {
  let server: TestServer;
  let closed: TestServer | undefined;
  let largest = '';

  const scrape = async (headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}/metrics`, { headers });
    return { status: response.status, text: await response.text() };
  };
  const families = async (): Promise<Map<string, PrometheusFamily>> => {
    const { status, text } = await scrape({ authorization: `Bearer ${token}` });
    expect(status, text).toBe(200);
    return new Map(parsePrometheusTextFormat(text).map((family) => [family.name, family]));
  };
  const samples = (family: PrometheusFamily | undefined) => family?.metrics ?? [];

  beforeAll(async () => {
    server = await startTestServer({
      config: { prometheus: { token, allowedNetworks: [], fleetLimit: 5 } },
    });
    // 10,000 devices over 40 fleets of growing size: series must stay bounded by the fleet limit.
    const organization = await fx.createOrganization(server.db, 'Metered');
    const fleetIds: number[] = [];
    for (let n = 1; n <= 40; n += 1) {
      fleetIds.push((await fx.createFleet(server.db, organization, `metered-${n}`)).id);
    }
    await server.db.query(
      `WITH "sizes" AS (
         SELECT "f", "i" FROM unnest($1::int[]) WITH ORDINALITY AS s("f", "i")
       ), "wanted" AS (
         SELECT "f", "i", generate_series(1, ("i" * 10000 / 820)::int) AS "k" FROM "sizes"
       ), "numbered" AS (
         SELECT row_number() OVER () AS "n", * FROM "wanted"
       ), "actors" AS (
         INSERT INTO "actor" SELECT FROM "numbered" RETURNING "id"
       ), "paired" AS (
         SELECT row_number() OVER (ORDER BY "id") AS "n", "id" FROM "actors"
       )
       INSERT INTO "device" ("actor", "uuid", "device_name", "is_of__device_type",
         "belongs_to__application", "last_contact_at", "update_status", "cpu_usage")
       SELECT p."id", md5('metered' || w."n"), 'metered-' || w."n",
              (SELECT "id" FROM "device_type" WHERE "slug" = 'raspberrypi4-64'), w."f",
              CASE WHEN w."n" % 3 = 0 THEN now() END,
              CASE WHEN w."n" % 4 = 0 THEN 'downloading' END, w."n" % 100
         FROM "numbered" w JOIN "paired" p USING ("n")`,
      [fleetIds],
    );
    const { rows } = await server.db.query<{ slug: string }>(
      `SELECT "slug" FROM "application" WHERE "id" = $1`,
      [fleetIds.at(-1) ?? 0],
    );
    largest = rows[0]?.slug ?? '';
  });
  afterAll(async () => {
    await server?.close();
    await closed?.close();
  });

  it('is off until a token or a network is configured', async () => {
    closed = await startTestServer();
    const response = await fetch(`${closed.url}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('FLOTILLA_PROMETHEUS_TOKEN');
  });

  it('refuses a scrape without the token, or with a wrong one', async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape({ authorization: 'Bearer scrape-token-0123456780' })).status).toBe(401);
    expect((await scrape({ authorization: `Basic ${token}` })).status).toBe(401);
  });

  it('admits callers from an allowed network without a token', async () => {
    if (!loopback) throw new Error('network');
    const open = await startTestServer({
      config: { prometheus: { token: undefined, allowedNetworks: [loopback], fleetLimit: 5 } },
    });
    try {
      expect((await fetch(`${open.url}/metrics`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('counts the devices of the largest fleets by status, and the installation', async () => {
    const found = await families();
    const devices = samples(found.get('flotilla_fleet_devices'));
    // 5 fleets x 7 statuses, whatever the number of fleets and devices.
    expect(new Set(devices.map((sample) => sample.labels?.fleet)).size).toBe(5);
    expect(devices).toHaveLength(35);
    const ofLargest = devices.filter((sample) => sample.labels?.fleet === largest);
    const sum = ofLargest.reduce((total, sample) => total + Number(sample.value), 0);
    expect(sum).toBe(Math.floor((40 * 10000) / 820));
    // The same as each device's own overall_status says.
    const own = await server.db.query<{ status: string; n: number }>(
      `SELECT ${overallStatus('"d"')} AS "status", count(*)::int AS "n"
         FROM "device" "d" JOIN "application" "a" ON "a"."id" = "d"."belongs_to__application"
        WHERE "a"."slug" = $1 GROUP BY 1`,
      [largest],
    );
    expect(own.rows.length).toBeGreaterThan(1);
    for (const sample of ofLargest) {
      const expected = own.rows.find((row) => row.status === sample.labels?.status)?.n ?? 0;
      expect(Number(sample.value), sample.labels?.status).toBe(expected);
    }
    const installation = samples(found.get('flotilla_installation'));
    const total = installation.find((sample) => sample.labels?.kind === 'devices');
    const { rows } = await server.db.query<{ n: number }>(
      'SELECT count(*)::int AS "n" FROM "device"',
    );
    expect(Number(total?.value)).toBe(rows[0]?.n);
    expect(rows[0]?.n).toBeGreaterThanOrEqual(9_900);
    const updates = samples(found.get('flotilla_fleet_update_status'));
    expect(new Set(updates.map((sample) => sample.labels?.update_status))).toEqual(
      new Set(['none', 'downloading']),
    );
    const readings = samples(found.get('flotilla_fleet_device_reading'));
    expect(readings.filter((sample) => sample.labels?.reading === 'cpu_usage')).toHaveLength(5);
  });

  it('counts requests by route pattern, never by raw URL', async () => {
    for (const path of ['/ping', '/no/such/path/1', '/no/such/path/2', '/v7/device(1)']) {
      await fetch(`${server.url}${path}`);
    }
    const found = await families();
    const routes = new Set(
      samples(found.get('flotilla_http_requests_total')).map((sample) => sample.labels?.route),
    );
    expect(routes).toContain('/ping');
    // Paths no route of the API matches fall to the console's catch-all: one label for them all.
    expect(routes).toContain('/*');
    expect([...routes].some((route) => route?.includes('/no/such'))).toBe(false);
    const histogram = found.get('flotilla_http_request_duration_seconds');
    expect(histogram?.type).toBe('HISTOGRAM');
    for (const name of [
      'flotilla_db_pool_connections',
      'flotilla_notifications_live',
      'flotilla_cloudlink_connections',
      'flotilla_builds',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(found.has(name), name).toBe(true);
    }
    // Every family's label sets stay few, with 10,000 devices in 40 fleets.
    for (const family of found.values()) {
      expect(family.metrics.length, family.name).toBeLessThan(400);
    }
  });
});
