// Started by embedded-postgres.int.test.ts as a separate process that is then killed with
// SIGKILL, leaving its PostgreSQL behind exactly as a crashed server would.
import { startEmbeddedPostgres } from './embedded-postgres.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: embedded-postgres-child.fixture.ts <dataDir>');
const database = await startEmbeddedPostgres({ dataDir, port: 0 });
process.stdout.write(`ready ${database.url}\n`);
setInterval(() => undefined, 60_000);
