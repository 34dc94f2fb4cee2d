// Started by the embedded PostgreSQL tests as a separate process: embedded-postgres.int.test.ts
// kills it with SIGKILL, leaving its PostgreSQL behind exactly as a crashed server would;
// embedded-postgres-users.int.test.ts runs it as another user and stops it with SIGTERM.
import { startEmbeddedPostgres } from './embedded-postgres.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: embedded-postgres-child.fixture.ts <dataDir>');
const database = await startEmbeddedPostgres({ dataDir, port: 0 });
process.stdout.write(`ready ${database.url} ${database.pid() ?? -1}\n`);
const keepAlive = setInterval(() => undefined, 60_000);
process.once('SIGTERM', () => {
  clearInterval(keepAlive);
  void database.stop().then(() => process.exit(0));
});
