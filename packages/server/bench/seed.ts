import type pg from 'pg';

// The benchmark's world, written with set-based SQL (generate_series, INSERT ... SELECT) so that
// 100,000 devices take seconds, not minutes. Ids are explicit: the database is a fresh throwaway
// one, and fixed ids keep the layout easy to reason about (fleet f owns devices
// (f-1)*devicesPerFleet+1 .. f*devicesPerFleet, release f, actor f).

export type SeedOptions = {
  organizations: number;
  fleets: number;
  devices: number;
  tagsPerDevice: number;
  // Fleets the plain member belongs to (1-based fleet numbers).
  memberFleets: readonly number[];
  // The release list's fleet (one the member belongs to) and the releases added to it.
  releaseListFleet: number;
  releaseListReleases: number;
};

export const defaultSeedOptions: SeedOptions = {
  organizations: 20,
  fleets: 200,
  devices: 100_000,
  tagsPerDevice: 3,
  memberFleets: [7, 84, 151],
  releaseListFleet: 7,
  releaseListReleases: 5000,
};

export type BenchUser = { userId: number; actorId: number; jwtSecret: string; username: string };

export type SeededFleet = {
  id: number;
  deviceIds: number[];
  deviceUuids: string[];
  // How many devices of the fleet are online (the dashboard filter).
  onlineCount: number;
};

export type SeedInfo = {
  fleets: SeededFleet[];
  memberFleetIds: number[];
  admin: BenchUser;
  member: BenchUser;
  // Administrator of a tenth of the organizations.
  smallAdmin: BenchUser;
  // The fleet with many releases (the release-list scenario) and how many it owns in all.
  releaseList: { fleet: number; releases: number };
  counts: Record<string, number>;
};

const tagKeys = ['location', 'rack', 'owner', 'customer', 'batch', 'firmware'];

const deviceTypeSlugs = ['raspberrypi4-64', 'raspberrypi3', 'raspberrypi5', 'raspberry-pi2'];

const assertEmpty = async (client: pg.ClientBase): Promise<void> => {
  const { rows } = await client.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM "actor") + (SELECT count(*) FROM "organization")
          + (SELECT count(*) FROM "application") + (SELECT count(*) FROM "user") AS n`,
  );
  if (Number(rows[0]?.n ?? 0) !== 0) {
    throw new Error('The benchmark seeds a fresh database only (fixed ids); this one has rows');
  }
};

// Identity columns accept explicit ids but do not advance their sequence: move every sequence we
// bypassed past the rows, so later inserts through the API do not collide.
const sequenceTables = [
  'actor',
  'organization',
  'application',
  'release',
  'release_tag',
  'service',
  'image',
  'release_image',
  'device',
  'user',
  'device_tag',
  'organization_membership',
  'user_application_membership',
];

export const seedBenchData = async (
  client: pg.ClientBase,
  options: SeedOptions = defaultSeedOptions,
): Promise<SeedInfo> => {
  const { organizations, fleets, devices, tagsPerDevice } = options;
  if (devices % fleets !== 0) throw new Error('devices must be a multiple of fleets');
  if (tagsPerDevice > tagKeys.length) throw new Error(`at most ${tagKeys.length} tags per device`);
  if (options.releaseListFleet < 1 || options.releaseListFleet > fleets) {
    throw new Error('the release list fleet must be one of the fleets');
  }
  const perFleet = devices / fleets;
  const fleetsPerOrganization = Math.ceil(fleets / organizations);
  // Actor layout: fleets 1..F, devices F+1..F+D, users after them.
  const deviceActorBase = fleets;
  const userActorBase = fleets + devices;

  await assertEmpty(client);
  await client.query('BEGIN');
  try {
    await client.query(`INSERT INTO "actor" ("id") SELECT g FROM generate_series(1, $1::int) g`, [
      userActorBase + 3,
    ]);
    await client.query(
      `INSERT INTO "organization" ("id", "name", "handle")
       SELECT g, 'Bench organization ' || g, 'bench-org-' || g FROM generate_series(1, $1::int) g`,
      [organizations],
    );
    await client.query(
      `INSERT INTO "application" ("id", "actor", "organization", "app_name", "slug", "is_for__device_type", "uuid")
       SELECT f, f, o, 'fleet-' || f, 'bench-org-' || o || '/fleet-' || f, dt."id", md5('fleet' || f)
         FROM generate_series(1, $1::int) f
         CROSS JOIN LATERAL (SELECT (f - 1) / $2::int + 1 AS o) org
         JOIN "device_type" dt ON dt."slug" = ($3::text[])[f % cardinality($3::text[]) + 1]`,
      [fleets, fleetsPerOrganization, deviceTypeSlugs],
    );
    // One final release per fleet (the release trigger parses the semver and numbers revisions).
    await client.query(
      `INSERT INTO "release" ("id", "belongs_to__application", "commit", "status", "source", "semver")
       SELECT f, f, md5('release' || f), 'success', 'cloud', '1.' || (f % 10) || '.0'
         FROM generate_series(1, $1::int) f`,
      [fleets],
    );
    await client.query(`UPDATE "application" SET "should_be_running__release" = "id"`);
    // Two services per fleet release, with images and a compose file, so target states and
    // state reports carry what a real fleet's do (services, image installs).
    await client.query(
      `INSERT INTO "service" ("id", "application", "service_name")
       SELECT 2 * (f - 1) + s, f, (ARRAY['main', 'proxy'])[s]
         FROM generate_series(1, $1::int) f CROSS JOIN generate_series(1, 2) s`,
      [fleets],
    );
    await client.query(
      `INSERT INTO "image" ("id", "is_a_build_of__service", "is_stored_at__image_location",
                            "content_hash", "status", "image_size", "project_type")
       SELECT s."id", s."id", 'registry.flotilla.local/v2/' || md5('image' || s."id"),
              'sha256:' || md5('content' || s."id") || md5('hash' || s."id"), 'success',
              80000000 + s."id", 'dockerfile'
         FROM "service" s`,
    );
    await client.query(
      `INSERT INTO "release_image" ("id", "image", "is_part_of__release")
       SELECT s."id", s."id", s."application" FROM "service" s`,
    );
    await client.query(
      `UPDATE "release" SET "composition" = '{"version": "2.1", "services": {
         "main": {"build": "./main", "restart": "always", "privileged": true,
                  "labels": {"io.balena.features.supervisor-api": "1"}},
         "proxy": {"build": "./proxy", "restart": "always", "ports": ["80:80"]}}}'::jsonb`,
    );
    // The heartbeat is computed from last_contact_at and poll_interval_ms
    // (migrations/0004-device-protocol.sql); the stored is_online, api_heartbeat_state and
    // last_connectivity_event are no longer read, so they keep their defaults. Two devices in
    // three (d % 3 <> 0) are online, i.e. contacted within 2.5 poll intervals + 10 s. Every state
    // holds for hours, so a full run (and its scale scenario) reads the same fleet throughout:
    //   online   contacted 0-5 min ago, with a 3 h poll interval (online for 4.5 h more);
    //   timeout  d % 29 = 0: 3.5 h ago, 2 h interval; d % 31 = 0: 100 min ago, 1 h interval
    //            (timing out for 50 more minutes; a rule ignoring the per-device interval would
    //            call the latter online);
    //   offline  contacted 12 h or more ago; d % 9 = 3: 10 min ago with a 1 min interval;
    //   unknown  d % 300 = 0: never contacted (overall_status 'configuring').
    // A device that polls during the run gets the default interval (10 min) from then on. A few
    // online devices are not connected to the VPN (reduced functionality) and a few are
    // downloading, so overall_status varies.
    await client.query(
      `INSERT INTO "device" (
         "id", "actor", "uuid", "device_name", "is_of__device_type", "belongs_to__application",
         "last_contact_at", "poll_interval_ms", "online_since", "connected_since",
         "is_connected_to_vpn", "is_running__release", "os_version", "os_variant",
         "supervisor_version", "status", "download_progress", "ip_address", "mac_address",
         "memory_total", "memory_usage", "cpu_usage", "cpu_temp", "note")
       SELECT d, $2::int + d, md5('device' || d), 'dev-' || substr(md5('name' || d), 1, 12),
              a."is_for__device_type", a."id",
              c."at", c."interval", c."at" - make_interval(mins => d % 2880),
              c."at" - make_interval(mins => d % 2880, hours => d % 240),
              d % 3 <> 0 AND d % 11 <> 0,
              a."id", 'balenaOS 5.3.' || (d % 20), 'prod', '16.4.' || (d % 7),
              CASE WHEN d % 50 = 1 THEN 'Downloading' ELSE 'Idle' END,
              CASE WHEN d % 50 = 1 THEN 40 END,
              '10.' || (d / 65536) % 256 || '.' || (d / 256) % 256 || '.' || d % 256,
              lpad(to_hex(d), 12, '0'), 4096, 1000 + d % 2000, d % 100, 40 + d % 30,
              CASE WHEN d % 10 = 0 THEN 'benchmark device ' || d END
         FROM generate_series(1, $1::int) d
         JOIN "application" a ON a."id" = (d - 1) / $3::int + 1
         CROSS JOIN LATERAL (SELECT
           CASE
             WHEN d % 300 = 0 THEN NULL
             WHEN d % 9 = 3 THEN now() - make_interval(mins => 10, secs => d % 60)
             WHEN d % 3 = 0 THEN now() - make_interval(hours => 12, secs => d % 86400)
             WHEN d % 29 = 0 THEN now() - make_interval(mins => 210, secs => d % 30)
             WHEN d % 31 = 0 THEN now() - make_interval(mins => 100, secs => d % 20)
             ELSE now() - make_interval(secs => d % 300)
           END AS "at",
           CASE
             WHEN d % 9 = 3 THEN 60000
             WHEN d % 3 = 0 THEN 600000
             WHEN d % 29 = 0 THEN 7200000
             WHEN d % 31 = 0 THEN 3600000
             ELSE 10800000
           END AS "interval") c`,
      [devices, deviceActorBase, perFleet],
    );
    await client.query(
      `INSERT INTO "device_tag" ("device", "tag_key", "value")
       SELECT d, k, k || '-' || (d * (i + 7)) % 97
         FROM generate_series(1, $1::int) d
         CROSS JOIN unnest(($2::text[])[1:$3::int]) WITH ORDINALITY AS t(k, i)`,
      [devices, tagKeys, tagsPerDevice],
    );
    const { rows: users } = await client.query<BenchUser>(
      `INSERT INTO "user" ("id", "actor", "username", "email")
       VALUES (1, $1::int + 1, 'bench_admin', 'bench_admin@example.com'),
              (2, $1::int + 2, 'bench_member', 'bench_member@example.com'),
              (3, $1::int + 3, 'bench_small_admin', 'bench_small_admin@example.com')
       RETURNING "id" AS "userId", "actor" AS "actorId", "jwt_secret" AS "jwtSecret", "username"`,
      [userActorBase],
    );
    // The administrator reaches every fleet through its organizations (fleet_access, first
    // branch); the member through direct fleet memberships (second branch). The small
    // administrator holds a tenth of the organizations (how counts grow with the fleet).
    await client.query(
      `INSERT INTO "organization_membership" ("user", "is_member_of__organization", "organization_membership_role")
       SELECT u, o, r."id" FROM generate_series(1, $1::int) o
         CROSS JOIN (VALUES (1), (3)) AS users(u)
         JOIN "organization_membership_role" r ON r."name" = 'administrator'
        WHERE u = 1 OR o <= greatest(1, $1::int / 10)`,
      [organizations],
    );
    await client.query(
      `INSERT INTO "user_application_membership" ("user", "is_member_of__application", "application_membership_role")
       SELECT 2, f, r."id" FROM unnest($1::int[]) f
         JOIN "application_membership_role" r ON r."name" = 'developer'`,
      [[...options.memberFleets]],
    );
    // The release list's fleet gets many more releases, authored by the member (who reads the
    // list), older than its first one, each with three tags; every tenth is invalidated with
    // its reason. Versions 2.x.y never collide with the fleets' 1.x.0, so no revisions.
    await client.query(
      `INSERT INTO "release" ("id", "belongs_to__application", "commit", "status", "source",
                              "semver", "created_at", "is_invalidated", "invalidation_reason",
                              "is_created_by__user", "start_timestamp", "update_timestamp")
       SELECT $2::int + g, $3::int, md5('list-release' || g),
              CASE WHEN g % 17 = 0 THEN 'failed' ELSE 'success' END, 'cloud',
              '2.' || (g / 100) || '.' || (g % 100), c."at", g % 10 = 0,
              CASE WHEN g % 10 = 0 THEN 'bench: broken build ' || g END, 2, c."at", c."at"
         FROM generate_series(1, $1::int) g
         CROSS JOIN LATERAL (SELECT now() - make_interval(mins => g) AS "at") c`,
      [options.releaseListReleases, fleets, options.releaseListFleet],
    );
    await client.query(
      `INSERT INTO "release_tag" ("release", "tag_key", "value")
       SELECT $2::int + g, k, k || '-' || (g * (i + 3)) % 41
         FROM generate_series(1, $1::int) g
         CROSS JOIN unnest(ARRAY['environment', 'branch', 'ticket']) WITH ORDINALITY AS t(k, i)`,
      [options.releaseListReleases, fleets],
    );
    for (const table of sequenceTables) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT coalesce(max("id"), 0) + 1 FROM "${table}"), false)`,
        [`"${table}"`],
      );
    }
    await client.query('COMMIT');
    const admin = users.find((user) => user.userId === 1);
    const member = users.find((user) => user.userId === 2);
    const smallAdmin = users.find((user) => user.userId === 3);
    if (!admin || !member || !smallAdmin) throw new Error('benchmark users were not created');

    await client.query('ANALYZE');

    // Online as laid out above (the sanity check compares the engine's count with the SQL's).
    const { rows: deviceRows } = await client.query<{
      id: number;
      uuid: string;
      fleet: number;
      online: boolean;
    }>(
      `SELECT "id", "uuid", "belongs_to__application" AS "fleet",
              "id" % 3 <> 0 AS "online"
         FROM "device" ORDER BY "id"`,
    );
    const byFleet = new Map<number, SeededFleet>();
    for (const row of deviceRows) {
      let fleet = byFleet.get(row.fleet);
      if (!fleet) {
        fleet = { id: row.fleet, deviceIds: [], deviceUuids: [], onlineCount: 0 };
        byFleet.set(row.fleet, fleet);
      }
      fleet.deviceIds.push(row.id);
      fleet.deviceUuids.push(row.uuid);
      if (row.online) fleet.onlineCount += 1;
    }
    const { rows: countRows } = await client.query<{ name: string; n: number }>(
      `SELECT 'organization' AS name, count(*)::int AS n FROM "organization"
       UNION ALL SELECT 'application', count(*)::int FROM "application"
       UNION ALL SELECT 'release', count(*)::int FROM "release"
       UNION ALL SELECT 'release_tag', count(*)::int FROM "release_tag"
       UNION ALL SELECT 'image', count(*)::int FROM "image"
       UNION ALL SELECT 'device', count(*)::int FROM "device"
       UNION ALL SELECT 'device_tag', count(*)::int FROM "device_tag"
       UNION ALL SELECT 'actor', count(*)::int FROM "actor"
       UNION ALL SELECT 'user', count(*)::int FROM "user"`,
    );
    return {
      fleets: [...byFleet.values()].sort((a, b) => a.id - b.id),
      memberFleetIds: [...options.memberFleets],
      admin,
      member,
      smallAdmin,
      releaseList: {
        fleet: options.releaseListFleet,
        releases: options.releaseListReleases + 1,
      },
      counts: Object.fromEntries(countRows.map((row) => [row.name, row.n])),
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
};
