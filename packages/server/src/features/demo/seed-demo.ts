import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../../infra/db/database.js';
import { createApiKey } from '../api-keys/store-api-key.js';
import { seedDemoBilling } from './demo-billing.js';
import { seedDemoCatalogue } from './demo-catalogue.js';
import { seedDemoRelease } from './demo-release.js';

export const demoOrganizationHandle = 'demo';

// The demo fleets `npm start` creates, and how many of the simulated devices each gets.
const demoFleets = [
  { name: 'greenhouse-sensors', deviceType: 'raspberrypi4-64', share: 0.5 },
  { name: 'warehouse-gateways', deviceType: 'generic-amd64', share: 0.3 },
  { name: 'retail-kiosks', deviceType: 'raspberrypi5', share: 0.2 },
] as const;

export type DemoFleet = {
  slug: string;
  provisioningKey: string;
  deviceType: string;
  share: number;
};

// Where the demo's simulator finds its fleets and provisioning keys (read by scripts/start.mjs).
export const demoFileName = 'demo-fleets.json';

// The demo fleet whose first release the server builds for real (demo-build.ts), left without a
// release by the seed.
export type DemoBuild = {
  fleetId: number;
  slug: string;
  admin: { userId: number; actorId: number };
};

// The demo fleet of the device type a container engine of this CPU architecture (as the Engine
// API names it) builds for; undefined when none of them matches.
export const demoFleetBuiltOn = (engineArchitecture: string): string | undefined =>
  ({ amd64: 'generic-amd64', arm64: 'raspberrypi4-64' })[engineArchitecture];

// The slug of the demo fleet of a device type.
export const demoFleetSlugOf = (deviceType: string): string | undefined => {
  const fleet = demoFleets.find((candidate) => candidate.deviceType === deviceType);
  return fleet === undefined ? undefined : `${demoOrganizationHandle}/${fleet.name}`;
};

// Creates, once, a demo organization administered by the platform administrator with three
// fleets and a small host OS catalogue for their device types, and writes their provisioning keys for the device simulator. Does nothing when the
// demo organization already exists or there is no administrator yet. The fleet of `buildFor`
// (a device type) gets no simulated first release: the caller builds a real one.
export const seedDemo = async (
  db: Database,
  dataDir: string,
  print: (line: string) => void,
  buildFor?: string,
  // With FLOTILLA_BILLING on: the demo organization's plan starts now (demo-billing.ts).
  billing?: { now: Date },
): Promise<{ fleets: DemoFleet[]; build: DemoBuild | undefined }> => {
  let build: DemoBuild | undefined;
  const fleets = await db.transaction(async (tx) => {
    const admin = await tx.query<{ id: number; actor: number }>(
      `SELECT u."id", u."actor" FROM "user" u JOIN "user_platform_role" r ON r."user" = u."id"
       WHERE r."role" = 'balena_admin' ORDER BY u."id" LIMIT 1`,
    );
    const adminRow = admin.rows[0];
    if (adminRow === undefined) return [];
    const adminId = adminRow.id;
    const existing = await tx.query('SELECT 1 FROM "organization" WHERE "handle" = $1', [
      demoOrganizationHandle,
    ]);
    const created = existing.rowCount === 0;
    if (created) {
      const organization = await tx.query<{ id: number }>(
        `INSERT INTO "organization" ("name", "handle") VALUES ('Demo', $1) RETURNING "id"`,
        [demoOrganizationHandle],
      );
      const organizationId = organization.rows[0]?.id;
      if (organizationId === undefined) throw new Error('demo organization insert returned no id');
      await tx.query(
        `INSERT INTO "organization_membership" ("user", "is_member_of__organization", "organization_membership_role")
         SELECT $1, $2, r."id" FROM "organization_membership_role" r WHERE r."name" = 'administrator'`,
        [adminId, organizationId],
      );
      for (const fleet of demoFleets) {
        const application = await tx.query<{ id: number }>(
          `INSERT INTO "application" ("app_name", "slug", "uuid", "organization", "is_for__device_type", "is_of__class")
           SELECT $1, $2, md5(random()::text), $3, dt."id", 'fleet' FROM "device_type" dt WHERE dt."slug" = $4
           RETURNING "id"`,
          [fleet.name, `${demoOrganizationHandle}/${fleet.name}`, organizationId, fleet.deviceType],
        );
        const applicationId = application.rows[0]?.id;
        if (applicationId === undefined) continue;
        if (fleet.deviceType === buildFor) {
          build = {
            fleetId: applicationId,
            slug: `${demoOrganizationHandle}/${fleet.name}`,
            admin: { userId: adminId, actorId: adminRow.actor },
          };
        } else await seedDemoRelease(tx, applicationId);
      }
      await seedDemoCatalogue(tx);
      if (billing) await seedDemoBilling(tx, organizationId, billing.now);
    }
    const rows = await tx.query<{ slug: string; actor: number }>(
      `SELECT "slug", "actor" FROM "application" WHERE "slug" = ANY($1::text[]) ORDER BY "id"`,
      [demoFleets.map((fleet) => `${demoOrganizationHandle}/${fleet.name}`)],
    );
    const result: DemoFleet[] = [];
    for (const row of rows.rows) {
      const fleet = demoFleets.find(
        (candidate) => `${demoOrganizationHandle}/${candidate.name}` === row.slug,
      );
      if (!fleet) continue;
      // A fresh key each start (keys are stored hashed, an old one cannot be read back); the
      // previous start's key goes.
      await tx.query(
        `DELETE FROM "api_key" WHERE "is_of__actor" = $1 AND "name" = 'demo simulator'`,
        [row.actor],
      );
      const provisioningKey = await createApiKey(tx, row.actor, {
        name: 'demo simulator',
        description: 'Provisioning key of the npm start device simulator',
      });
      result.push({
        slug: row.slug,
        provisioningKey,
        deviceType: fleet.deviceType,
        share: fleet.share,
      });
    }
    if (created)
      print(
        `Demo organization created with fleets: ${result.map((fleet) => fleet.slug).join(', ')}`,
      );
    return result;
  });
  if (fleets.length > 0) {
    await writeFile(path.join(dataDir, demoFileName), `${JSON.stringify(fleets, null, 2)}\n`, {
      mode: 0o600,
    });
  }
  return { fleets, build };
};
