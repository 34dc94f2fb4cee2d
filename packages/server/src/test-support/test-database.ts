import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../infra/db/database.js';

// Declaration merging only works with an interface, hence the lint exception.
declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- declaration merging needs an interface
  export interface ProvidedContext {
    postgresAdminUrl: string;
    postgresTemplate: string;
  }
}

// A fresh, migrated database (cloned from the run's template): its URL, for a whole server
// process started by the test, and how to drop it.
export const createTestDatabaseUrl = async (): Promise<{ url: string; drop(): Promise<void> }> => {
  const adminUrl = inject('postgresAdminUrl');
  const template = inject('postgresTemplate');
  const name = `flotilla_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
};

// A fresh, migrated database for one test file.
export const createTestDatabase = async (): Promise<Database> => {
  const { url, drop } = await createTestDatabaseUrl();
  const db = openDatabase(url, { max: 5 });
  const close = db.close;
  return {
    ...db,
    close: async () => {
      await close();
      await drop();
    },
  };
};
