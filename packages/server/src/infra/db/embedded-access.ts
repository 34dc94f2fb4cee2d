import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type EmbeddedLog, runningPostmaster, startEmbeddedPostgres } from './embedded-postgres.js';

// The database of an installation, for a command run beside its server (backup) or in its place
// (restore): DATABASE_URL's, else the embedded PostgreSQL of the data directory, the running one
// when the server is up, else started for the command and stopped by release().
export type DatabaseAccess = { url: string; release(): Promise<void> };

const database = 'flotilla';

export const accessInstallationDatabase = async (options: {
  databaseUrl: string | undefined;
  dataDir: string;
  log?: EmbeddedLog;
}): Promise<DatabaseAccess> => {
  if (options.databaseUrl) return { url: options.databaseUrl, release: () => Promise.resolve() };
  const dataDir = path.resolve(options.dataDir);
  const running = await runningPostmaster(path.join(dataDir, 'postgres'));
  if (running) {
    const password = (await readFile(path.join(dataDir, 'postgres-password'), 'utf8')).trim();
    return {
      url: `postgres://flotilla:${password}@127.0.0.1:${running.port}/${database}`,
      release: () => Promise.resolve(),
    };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir,
    port: 0,
    database,
    log: options.log,
    restart: false,
  });
  return { url: embedded.url, release: () => embedded.stop() };
};
