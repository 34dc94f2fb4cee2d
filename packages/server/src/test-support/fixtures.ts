import { randomBytes } from 'node:crypto';
import type { Queryable, SqlValue } from '../infra/db/database.js';

// Per-scenario fixtures written straight to the database, so a test states its world in a few
// lines and never depends on the API it is testing.

const one = async (db: Queryable, sql: string, params: SqlValue[] = []): Promise<number> => {
  const { rows } = await db.query<{ id: number }>(sql, params);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error(`fixture insert returned nothing: ${sql}`);
  return id;
};

const newActor = (db: Queryable): Promise<number> =>
  one(db, 'INSERT INTO "actor" DEFAULT VALUES RETURNING "id"');

export type UserFixture = { userId: number; actorId: number; username: string };

export const createUser = async (db: Queryable, username: string): Promise<UserFixture> => {
  const actorId = await newActor(db);
  const userId = await one(
    db,
    'INSERT INTO "user" ("username", "email", "actor") VALUES ($1, $2, $3) RETURNING "id"',
    [username, `${username}@example.com`, actorId],
  );
  return { userId, actorId, username };
};

export const createOrganization = (db: Queryable, name: string): Promise<number> =>
  one(db, 'INSERT INTO "organization" ("name", "handle") VALUES ($1, $2) RETURNING "id"', [
    name,
    name.toLowerCase().replace(/[^a-z0-9_]/g, '_'),
  ]);

export const addOrganizationMember = (
  db: Queryable,
  userId: number,
  organizationId: number,
  role: 'administrator' | 'member',
): Promise<number> =>
  one(
    db,
    `INSERT INTO "organization_membership" ("user", "is_member_of__organization", "organization_membership_role")
     SELECT $1, $2, r."id" FROM "organization_membership_role" r WHERE r."name" = $3 RETURNING "id"`,
    [userId, organizationId, role],
  );

export type FleetFixture = { id: number; actorId: number; slug: string; uuid: string };

export const createFleet = async (
  db: Queryable,
  organizationId: number,
  name: string,
  options: { deviceType?: string; isPublic?: boolean } = {},
): Promise<FleetFixture> => {
  const actorId = await newActor(db);
  const uuid = randomBytes(16).toString('hex');
  const slug = `org${organizationId}/${name.toLowerCase()}`;
  const id = await one(
    db,
    `INSERT INTO "application" ("app_name", "slug", "uuid", "organization", "actor", "is_for__device_type", "is_public")
     SELECT $1, $2, $3, $4, $5, dt."id", $7 FROM "device_type" dt WHERE dt."slug" = $6 RETURNING "id"`,
    [
      name,
      slug,
      uuid,
      organizationId,
      actorId,
      options.deviceType ?? 'raspberrypi4-64',
      options.isPublic ?? false,
    ],
  );
  return { id, actorId, slug, uuid };
};

export const addFleetMember = (
  db: Queryable,
  userId: number,
  applicationId: number,
  role: string,
): Promise<number> =>
  one(
    db,
    `INSERT INTO "user_application_membership" ("user", "is_member_of__application", "application_membership_role")
     SELECT $1, $2, r."id" FROM "application_membership_role" r WHERE r."name" = $3 RETURNING "id"`,
    [userId, applicationId, role],
  );

export const createTeam = (db: Queryable, organizationId: number, name: string): Promise<number> =>
  one(
    db,
    'INSERT INTO "team" ("belongs_to__organization", "name") VALUES ($1, $2) RETURNING "id"',
    [organizationId, name],
  );

export const addTeamMember = (db: Queryable, userId: number, teamId: number): Promise<number> =>
  one(
    db,
    'INSERT INTO "team_membership" ("user", "is_member_of__team") VALUES ($1, $2) RETURNING "id"',
    [userId, teamId],
  );

export const grantTeamAccess = (
  db: Queryable,
  teamId: number,
  applicationId: number,
  role: string,
): Promise<number> =>
  one(
    db,
    `INSERT INTO "team_application_access" ("team", "grants_access_to__application", "application_membership_role")
     SELECT $1, $2, r."id" FROM "application_membership_role" r WHERE r."name" = $3 RETURNING "id"`,
    [teamId, applicationId, role],
  );

export type DeviceFixture = { id: number; uuid: string; actorId: number };

export const createDevice = async (
  db: Queryable,
  applicationId: number,
  name: string,
  extra: { isOnline?: boolean; deviceType?: string } = {},
): Promise<DeviceFixture> => {
  const actorId = await newActor(db);
  const uuid = randomBytes(16).toString('hex');
  const id = await one(
    db,
    `INSERT INTO "device" ("uuid", "device_name", "belongs_to__application", "actor", "is_of__device_type", "is_online")
     SELECT $1, $2, $3, $4, dt."id", $6 FROM "device_type" dt WHERE dt."slug" = $5 RETURNING "id"`,
    [
      uuid,
      name,
      applicationId,
      actorId,
      extra.deviceType ?? 'raspberrypi4-64',
      extra.isOnline ?? false,
    ],
  );
  return { id, uuid, actorId };
};

export const tagDevice = (
  db: Queryable,
  deviceId: number,
  key: string,
  value: string,
): Promise<number> =>
  one(
    db,
    'INSERT INTO "device_tag" ("device", "tag_key", "value") VALUES ($1, $2, $3) RETURNING "id"',
    [deviceId, key, value],
  );

export const setFleetEnvVar = (
  db: Queryable,
  applicationId: number,
  name: string,
  value: string,
): Promise<number> =>
  one(
    db,
    'INSERT INTO "application_environment_variable" ("application", "name", "value") VALUES ($1, $2, $3) RETURNING "id"',
    [applicationId, name, value],
  );

export const createRelease = (
  db: Queryable,
  applicationId: number,
  commit: string,
  extra: { status?: string; semver?: [number, number, number] } = {},
): Promise<number> => {
  const [major, minor, patch] = extra.semver ?? [1, 0, 0];
  return one(
    db,
    `INSERT INTO "release" ("belongs_to__application", "commit", "status", "composition", "source", "semver_major", "semver_minor", "semver_patch", "start_timestamp")
     VALUES ($1, $2, $3, '{}'::jsonb, 'cloud', $4, $5, $6, now()) RETURNING "id"`,
    [applicationId, commit, extra.status ?? 'success', major, minor, patch],
  );
};
