import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../infra/db/embedded-postgres.js';
import { openDatabase } from '../infra/db/database.js';
import { migrate } from '../infra/db/migrate.js';

const templateName = 'flotilla_test_template';

// One PostgreSQL for the whole run: DATABASE_URL when given (CI's second pass runs against
// Debian's PostgreSQL), otherwise a throwaway embedded one. Every test file then clones a
// migrated template database, so scenarios never see each other's rows.
export const setup = async (project: TestProject): Promise<() => Promise<void>> => {
  let adminUrl: string;
  let stop = async (): Promise<void> => undefined;
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else {
    // Per run, so two test runs on one machine never share (or wipe) each other's cluster.
    const dataDir = path.resolve(`data/test-postgres-${project.name}-${process.pid}`);
    await rm(dataDir, { recursive: true, force: true });
    const embedded = await startEmbeddedPostgres({ dataDir, port: 0, database: 'flotilla' });
    adminUrl = embedded.url;
    stop = async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const template = `${templateName}_${project.name}`;
  await admin.query(`DROP DATABASE IF EXISTS "${template}"`);
  await admin.query(`CREATE DATABASE "${template}"`);
  await admin.end();
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${template}`;
  const db = openDatabase(templateUrl.toString(), { max: 1 });
  await migrate(db);
  await db.close();
  project.provide('postgresAdminUrl', adminUrl);
  project.provide('postgresTemplate', template);
  return async () => {
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    const leftovers = await cleanup.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'flotilla_t_%' OR datname = $1`,
      [template],
    );
    for (const row of leftovers.rows) {
      await cleanup.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    }
    await cleanup.end();
    await stop();
  };
};
