import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../app-context.js';
import { createApiKey } from '../../features/api-keys/store-api-key.js';
import { issueSessionToken } from '../../features/auth/issue-session-token.js';
import { hashTestPassword } from '../test-passwords.js';
import type { Queryable, SqlValue } from '../../infra/db/database.js';
import type { Model } from '../../model/model-types.js';
import { quoteIdentifier } from '../../infra/odata/sql-params.js';
import * as fx from '../fixtures.js';

// A small world for the fuzz: organization A (an administrator, an observer, a fleet with two
// devices, a device key and a provisioning key) and organization B, whose secrets no caller of
// the fuzz may ever see.

export type Caller = { name: string; authorization: string | undefined };

export type FuzzWorld = {
  callers: Caller[];
  // Values path and body parameters are sometimes filled with, so requests reach real rows.
  uuids: string[];
  ids: number[];
  slugs: string[];
  usernames: string[];
  // Strings no answer may contain: hidden fields' values and organization B's variable values.
  secrets: string[];
};

const secretOf = (label: string): string => `${label}-${randomBytes(12).toString('hex')}`;

const insert = async (db: Queryable, sql: string, params: SqlValue[]): Promise<void> => {
  await db.query(sql, params);
};

// Values of the model's hidden fields (password hashes, JWT secrets, key hashes...). E-mail is
// left out: it is hidden from /v7 but whoami shows users their own.
const hiddenValues = async (db: Queryable, model: Model): Promise<string[]> => {
  const values: string[] = [];
  for (const resource of model.resources.values()) {
    for (const field of resource.fields.values()) {
      if (!field.hidden || field.name !== field.column || field.name === 'email') continue;
      const { rows } = await db.query<{ value: string }>(
        `SELECT ${quoteIdentifier(field.column)}::text AS value FROM ${quoteIdentifier(resource.name)}
         WHERE ${quoteIdentifier(field.column)} IS NOT NULL`,
      );
      // Short values (ports, 8-character key prefixes) could turn up in any text by chance.
      values.push(...rows.map((row) => row.value).filter((value) => value.length >= 16));
    }
  }
  return values;
};

export const createFuzzWorld = async (ctx: AppContext): Promise<FuzzWorld> => {
  const db = ctx.db;
  const admin = await fx.createUser(db, 'fuzz_admin');
  const observer = await fx.createUser(db, 'fuzz_observer');
  const outsider = await fx.createUser(db, 'fuzz_outsider');
  await db.query('UPDATE "user" SET "password_hash" = $1 WHERE "id" = $2', [
    await hashTestPassword('correct horse battery'),
    admin.userId,
  ]);
  const orgA = await fx.createOrganization(db, 'FuzzA');
  const orgB = await fx.createOrganization(db, 'FuzzB');
  await fx.addOrganizationMember(db, admin.userId, orgA, 'administrator');
  await fx.addOrganizationMember(db, observer.userId, orgA, 'member');
  await fx.addOrganizationMember(db, outsider.userId, orgB, 'administrator');
  const fleetA = await fx.createFleet(db, orgA, 'Alpha');
  const fleetB = await fx.createFleet(db, orgB, 'Bravo');
  await fx.addFleetMember(db, observer.userId, fleetA.id, 'observer');
  const deviceA = await fx.createDevice(db, fleetA.id, 'alpha-one', { isOnline: true });
  const deviceA2 = await fx.createDevice(db, fleetA.id, 'alpha-two');
  const deviceB = await fx.createDevice(db, fleetB.id, 'bravo-one');
  await fx.setFleetEnvVar(db, fleetA.id, 'A_VAR', 'visible to A');
  await fx.tagDevice(db, deviceA.id, 'room', 'kitchen');

  const secrets: string[] = [];
  const fleetSecret = secretOf('fleet-b');
  const deviceSecret = secretOf('device-b');
  const configSecret = secretOf('config-b');
  const tagSecret = secretOf('tag-b');
  await fx.setFleetEnvVar(db, fleetB.id, 'B_SECRET', fleetSecret);
  await insert(
    db,
    'INSERT INTO "device_environment_variable" ("device", "name", "value") VALUES ($1, $2, $3)',
    [deviceB.id, 'B_DEVICE_SECRET', deviceSecret],
  );
  await insert(
    db,
    'INSERT INTO "device_config_variable" ("device", "name", "value") VALUES ($1, $2, $3)',
    [deviceB.id, 'BALENA_B_SECRET', configSecret],
  );
  await fx.tagDevice(db, deviceB.id, 'secret', tagSecret);
  secrets.push(fleetSecret, deviceSecret, configSecret, tagSecret);

  const deviceKey = await createApiKey(db, deviceA.actorId, { name: 'device' });
  const provisioningKey = await createApiKey(db, fleetA.actorId, { name: 'provisioning' });
  const userKey = await createApiKey(db, admin.actorId, { name: 'user key' });
  // Organization B's own keys: their values are secrets too.
  const secretKeys = [
    await createApiKey(db, deviceB.actorId, { name: 'device' }),
    await createApiKey(db, fleetB.actorId, { name: 'provisioning' }),
    await createApiKey(db, outsider.actorId, { name: 'user key' }),
  ];
  secrets.push(...secretKeys, ...(await hiddenValues(db, ctx.model)));

  const bearer = (token: string): string => `Bearer ${token}`;
  return {
    callers: [
      { name: 'anonymous', authorization: undefined },
      {
        name: 'administrator of A',
        authorization: bearer(await issueSessionToken(ctx, db, admin.userId)),
      },
      { name: 'user API key of A', authorization: bearer(userKey) },
      {
        name: 'observer of A',
        authorization: bearer(await issueSessionToken(ctx, db, observer.userId)),
      },
      { name: 'device key of A', authorization: bearer(deviceKey) },
      { name: 'provisioning key of A', authorization: bearer(provisioningKey) },
      { name: 'garbage token', authorization: 'Bearer not.a.token' },
    ],
    uuids: [deviceA.uuid, deviceA2.uuid, deviceB.uuid, fleetA.uuid],
    ids: [deviceA.id, deviceA2.id, deviceB.id, fleetA.id, fleetB.id, orgA, orgB, admin.userId],
    slugs: [fleetA.slug, fleetB.slug, 'raspberrypi4-64', 'fuzza'],
    usernames: ['fuzz_admin', 'fuzz_observer', 'fuzz_outsider'],
    secrets,
  };
};

// Row counts of every table, in one statement: what a failed write must leave unchanged.
export const createRowCounter = async (
  db: Queryable,
  // Tables written asynchronously or on purpose by refused requests (failed logins).
  ignored: readonly string[],
): Promise<() => Promise<Record<string, number>>> => {
  const { rows } = await db.query<{ name: string }>(
    // A partitioned table as a whole: its partitions come and go (device_log's days).
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY c.relname`,
  );
  const tables = rows.map((row) => row.name).filter((name) => !ignored.includes(name));
  const sql = tables
    .map((name) => `SELECT '${name}' AS name, count(*) AS n FROM ${quoteIdentifier(name)}`)
    .join(' UNION ALL ');
  return async () => {
    const counted = await db.query<{ name: string; n: number }>(sql);
    return Object.fromEntries(counted.rows.map((row) => [row.name, row.n]));
  };
};
