import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/infra/db/embedded-postgres.js';

// The bench's own database: a fresh one inside DATABASE_URL's server, or an embedded PostgreSQL
// in a throwaway data directory. `drop` removes it again.

export type BenchDatabase = {
  url: string;
  kind: 'embedded' | 'DATABASE_URL';
  // The embedded server's postmaster (its CPU counts in the scale scenario); undefined otherwise.
  postmasterPid(): Promise<number | undefined>;
  drop(): Promise<void>;
};

const withClient = async (url: string, work: (client: pg.Client) => Promise<void>) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
};

export const provisionDatabase = async (repoRoot: string): Promise<BenchDatabase> => {
  const name = `flotilla_bench_${randomBytes(4).toString('hex')}`;
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    await withClient(serverUrl, async (client) => {
      await client.query(`CREATE DATABASE "${name}"`);
    });
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      kind: 'DATABASE_URL',
      postmasterPid: async () => undefined,
      drop: () =>
        withClient(serverUrl, async (client) => {
          await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        }),
    };
  }
  const dataDir = path.join(repoRoot, 'data', 'bench-postgres');
  await rm(dataDir, { recursive: true, force: true });
  const embedded = await startEmbeddedPostgres({ dataDir, port: 0, database: name });
  return {
    url: embedded.url,
    kind: 'embedded',
    // The first line of postmaster.pid is the postmaster's pid.
    postmasterPid: async () =>
      Number(
        (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0],
      ),
    async drop() {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};
