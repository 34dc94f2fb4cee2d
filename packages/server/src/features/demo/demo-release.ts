import type { Queryable } from '../../infra/db/database.js';

// A first release for a demo fleet: two services with images and a compose file, so simulated
// devices download it, run its services and answer container actions.
const composition = {
  version: '2.1',
  services: {
    main: {
      build: './main',
      restart: 'always',
      labels: { 'io.balena.features.supervisor-api': '1' },
    },
    proxy: { build: './proxy', restart: 'always', ports: ['80:80'] },
  },
};

export const seedDemoRelease = async (tx: Queryable, applicationId: number): Promise<void> => {
  const release = await tx.query<{ id: number }>(
    `INSERT INTO "release" ("belongs_to__application", "commit", "status", "source", "semver", "composition", "start_timestamp", "end_timestamp")
     VALUES ($1, md5('demo-release-' || random()::text), 'success', 'cloud', '1.0.0', $2::jsonb, now(), now())
     RETURNING "id"`,
    [applicationId, JSON.stringify(composition)],
  );
  const releaseId = release.rows[0]?.id;
  if (releaseId === undefined) throw new Error('demo release insert returned no id');
  for (const serviceName of Object.keys(composition.services)) {
    const service = await tx.query<{ id: number }>(
      `INSERT INTO "service" ("application", "service_name") VALUES ($1, $2) RETURNING "id"`,
      [applicationId, serviceName],
    );
    const serviceId = service.rows[0]?.id;
    const image = await tx.query<{ id: number }>(
      `INSERT INTO "image" ("is_a_build_of__service", "is_stored_at__image_location", "content_hash", "status", "image_size", "project_type")
       VALUES ($1, 'registry.flotilla.local/v2/' || md5(random()::text), 'sha256:' || md5(random()::text) || md5(random()::text), 'success', 84000000, 'dockerfile')
       RETURNING "id"`,
      [serviceId ?? null],
    );
    await tx.query(`INSERT INTO "release_image" ("image", "is_part_of__release") VALUES ($1, $2)`, [
      image.rows[0]?.id ?? null,
      releaseId,
    ]);
  }
  await tx.query(`UPDATE "application" SET "should_be_running__release" = $2 WHERE "id" = $1`, [
    applicationId,
    releaseId,
  ]);
};
