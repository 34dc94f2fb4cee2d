import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '../src/infra/auth/api-key-tokens.js';

// Issue 11, "Devices follow": what one fleet variable change costs. Setting a variable on a
// fleet must not write anything per device; each device of that fleet gets a new target state
// (a new ETag) on its next poll, and only those devices lose their 304.
//
// Self-contained (fetch and one SQL statement), so any bench runner can call it:
//   measureFleetVariableChange({ baseUrl, sql, devices, log }) → FleetVariableResult
// `devices` are devices with device API keys spread over several fleets (the bench's
// createDeviceKeys); `sql` is the bench database (to mint the administrator's API key).
//
// Steps: every device polls once to learn its ETag; every device polls again with it (304 share
// "before"); one fleet variable is POSTed on the fleet with the most devices (the time of that
// write); every device polls again with its first ETag (304 share "after", per group); the
// variable is deleted; the same write on the fleet with the fewest devices is timed (it must not
// grow with the fleet's size) and deleted.

export type FleetVariableDevice = { id: number; uuid: string; key: string; fleetUuid: string };

// What the scenario needs of the bench database: the server's Queryable and a pg.Pool both fit.
export type BenchSql = {
  query<Row extends object>(
    sql: string,
    params?: (string | number)[],
  ): Promise<{ rows: Row[]; rowCount: number | null }>;
};

export type FleetVariableInput = {
  baseUrl: string;
  sql: BenchSql;
  devices: readonly FleetVariableDevice[];
  // A user who may write the fleets' variables; bench_admin (organization administrator of every
  // seeded fleet) when absent.
  username?: string;
  log?: (line: string) => void;
};

export type PollShare = { polls: number; notModified: number; share304: number };

export type FleetVariableResult = {
  // `devices`: the fleet's devices with keys polling here; `total`: all of its devices.
  changedFleet: { uuid: string; devices: number; total: number };
  // Device rows of the fleet the write touched (it must be none: no per-device write).
  deviceRowsWritten: number;
  smallFleet: { uuid: string; devices: number } | null;
  // Milliseconds of the one POST /v7/application_environment_variable, per fleet.
  applyMs: number;
  applySmallFleetMs: number | null;
  before: { changedFleet: PollShare; otherFleets: PollShare };
  after: { changedFleet: PollShare; otherFleets: PollShare };
};

const concurrency = 16;

const forEachLimited = async <T>(items: readonly T[], work: (item: T) => Promise<void>) => {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let item = items[next++]; item !== undefined; item = items[next++]) await work(item);
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
};

// A user API key for the bench's administrator, minted the way the server stores keys.
const userKey = async (sql: BenchSql, username: string): Promise<string> => {
  const key = generateApiKey();
  const { rowCount } = await sql.query(
    `INSERT INTO "api_key" ("is_of__actor", "key_hash", "key_prefix", "name")
     SELECT "actor", $2, $3, 'bench fleet variable' FROM "user" WHERE "username" = $1`,
    [username, hashApiKey(key), apiKeyPrefix(key)],
  );
  if (rowCount !== 1) throw new Error(`no bench user ${username}`);
  return key;
};

const api = async (
  baseUrl: string,
  key: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<unknown> => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text === '' || text === 'OK' ? null : JSON.parse(text);
};

const idOf = (answer: unknown): number => {
  const record = typeof answer === 'object' && answer !== null ? answer : {};
  const d = 'd' in record && Array.isArray(record.d) ? record.d[0] : record;
  const id = typeof d === 'object' && d !== null && 'id' in d ? d.id : undefined;
  if (typeof id !== 'number') throw new Error(`no id in ${JSON.stringify(answer).slice(0, 200)}`);
  return id;
};

const share = (statuses: readonly number[]): PollShare => {
  const notModified = statuses.filter((status) => status === 304).length;
  return {
    polls: statuses.length,
    notModified,
    share304: statuses.length === 0 ? 0 : notModified / statuses.length,
  };
};

export const measureFleetVariableChange = async (
  input: FleetVariableInput,
): Promise<FleetVariableResult> => {
  const { baseUrl, devices } = input;
  const log = input.log ?? (() => undefined);
  const byFleet = new Map<string, FleetVariableDevice[]>();
  for (const device of devices) {
    byFleet.set(device.fleetUuid, [...(byFleet.get(device.fleetUuid) ?? []), device]);
  }
  const fleets = [...byFleet.entries()].sort((a, b) => b[1].length - a[1].length);
  const [largest] = fleets;
  if (!largest) throw new Error('no devices to measure with');
  const smallest = fleets.length > 1 ? fleets.at(-1) : undefined;
  const key = await userKey(input.sql, input.username ?? 'bench_admin');

  const etags = new Map<number, string>();
  const poll = async (device: FleetVariableDevice): Promise<number> => {
    const etag = etags.get(device.id);
    const response = await fetch(`${baseUrl}/device/v3/${device.uuid}/state`, {
      headers: {
        authorization: `Bearer ${device.key}`,
        ...(etag === undefined ? {} : { 'if-none-match': etag }),
      },
    });
    await response.arrayBuffer();
    if (response.status !== 200 && response.status !== 304) {
      throw new Error(`target state of ${device.uuid} answered ${response.status}`);
    }
    // The ETag of the first answer is kept: "after" polls send the one from before the change.
    const fresh = response.headers.get('etag');
    if (etag === undefined && fresh !== null) etags.set(device.id, fresh);
    return response.status;
  };
  const pollAll = async () => {
    const changed: number[] = [];
    const other: number[] = [];
    await forEachLimited(devices, async (device) => {
      const status = await poll(device);
      (device.fleetUuid === largest[0] ? changed : other).push(status);
    });
    return { changedFleet: share(changed), otherFleets: share(other) };
  };

  await pollAll();
  const before = await pollAll();
  const fleetId = async (uuid: string): Promise<number> =>
    idOf(
      await api(baseUrl, key, 'GET', `/v7/application?$select=id&$filter=uuid%20eq%20'${uuid}'`),
    );
  // A transaction id taken just before a write: device rows written after it have a newer xmin.
  const transactionNow = async (): Promise<string> =>
    (await input.sql.query<{ now: string }>('SELECT txid_current()::text AS "now"')).rows[0]?.now ??
    '0';
  const deviceRowsSince = async (uuid: string, since: string): Promise<number> =>
    (
      await input.sql.query<{ n: number }>(
        `SELECT count(*)::int AS "n" FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application"
          WHERE a."uuid" = $1 AND d."xmin"::text::bigint > $2::bigint`,
        [uuid, since],
      )
    ).rows[0]?.n ?? 0;
  const setVariable = async (uuid: string) => {
    const application = await fleetId(uuid);
    const name = `BENCH_${randomBytes(4).toString('hex').toUpperCase()}`;
    const since = await transactionNow();
    const started = performance.now();
    const created = await api(baseUrl, key, 'POST', '/v7/application_environment_variable', {
      application,
      name,
      value: 'changed',
    });
    const ms = performance.now() - started;
    return { ms, id: idOf(created), deviceRowsWritten: await deviceRowsSince(uuid, since) };
  };
  const fleetSize = async (uuid: string): Promise<number> =>
    (
      await input.sql.query<{ n: number }>(
        `SELECT count(*)::int AS "n" FROM "device" d JOIN "application" a ON a."id" = d."belongs_to__application" WHERE a."uuid" = $1`,
        [uuid],
      )
    ).rows[0]?.n ?? 0;
  const big = await setVariable(largest[0]);
  const after = await pollAll();
  await api(baseUrl, key, 'DELETE', `/v7/application_environment_variable(${big.id})`);
  // The same write on the fleet with the fewest devices, after the polls: its time must not
  // differ with the fleet's size.
  const small = smallest ? await setVariable(smallest[0]) : null;
  if (small) await api(baseUrl, key, 'DELETE', `/v7/application_environment_variable(${small.id})`);

  const result: FleetVariableResult = {
    changedFleet: {
      uuid: largest[0],
      devices: largest[1].length,
      total: await fleetSize(largest[0]),
    },
    deviceRowsWritten: big.deviceRowsWritten,
    smallFleet: smallest ? { uuid: smallest[0], devices: smallest[1].length } : null,
    applyMs: big.ms,
    applySmallFleetMs: small?.ms ?? null,
    before,
    after,
  };
  log(
    `fleet variable: ${result.applyMs.toFixed(1)} ms on a fleet of ${result.changedFleet.total} devices ` +
      `(${result.changedFleet.devices} polling, ${result.deviceRowsWritten} device rows written)` +
      (small ? `, ${small.ms.toFixed(1)} ms on one of ${result.smallFleet?.devices}` : '') +
      `; 304 share of that fleet ${(100 * before.changedFleet.share304).toFixed(0)}% → ${(100 * after.changedFleet.share304).toFixed(0)}%,` +
      ` of the others ${(100 * before.otherFleets.share304).toFixed(0)}% → ${(100 * after.otherFleets.share304).toFixed(0)}%`,
  );
  return result;
};
