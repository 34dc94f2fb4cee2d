import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  choosePostgresRunner,
  clusterOwnerOf,
  ensureClusterOwner,
  invocationOf,
} from '../infra/db/postgres-runner.js';
import { ensureDebianPackage } from './debian-postgres.js';
import { freePort } from './free-port.js';
import { startProxyProcess, throughProxy } from './proxy-process.js';

// Debian's PgBouncer (installed with apt when missing) in front of one PostgreSQL database, in
// session pooling mode as docs/FAILOVER.md asks, on a free loopback port, in the foreground in a
// process group of its own (killed with the test process at the latest). It refuses to run as
// root, so it runs the way the tests' PostgreSQL does (postgres-runner.ts). Ready once its admin
// console answers.

export type PgbouncerForPostgres = {
  port: number;
  // The same connection URL, through PgBouncer.
  via(url: string): string;
  // One admin console command (`SHOW POOLS`, `RELOAD`, `KILL flotilla` ...); resolves with its rows.
  admin<Row extends object = Record<string, unknown>>(command: string): Promise<Row[]>;
  // Points the database at another PostgreSQL as an operator does at a failover: its sessions
  // cut and new ones held (KILL), the configuration rewritten and re-read (RELOAD), then let
  // through again (RESUME).
  repoint(serverPort: number): Promise<void>;
  close(): Promise<void>;
};

const binary = '/usr/sbin/pgbouncer';

export type PgbouncerSettings = {
  port: number;
  database: string;
  serverPort: number;
  // The user list `flotilla` must be in (no password: trust on loopback).
  authFile: string;
};

export const pgbouncerConfig = ({
  port,
  database,
  serverPort,
  authFile,
}: PgbouncerSettings): string =>
  [
    '[databases]',
    `${database} = host=127.0.0.1 port=${serverPort} dbname=${database}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${authFile}`,
    'admin_users = flotilla',
    // Prepared statements and LISTEN live in a session: a client keeps its server connection.
    'pool_mode = session',
    // One server connection per client in session mode: the pool (10), the LISTEN connection,
    // and the short connections that cancel a statement.
    'default_pool_size = 40',
    'max_client_conn = 100',
    // node-postgres sends the session settings (`-c jit=off`) as `options`, which PgBouncer
    // 1.18 cannot pass on; without this it refuses the connection.
    'ignore_startup_parameters = options',
    // While the primary cannot be reached: a client waiting for a server connection gets an
    // error (08P01, the server answers 503) after 5 s instead of 120 s, new clients are refused
    // at once until a server login is retried 1 s later, and a host that does not answer is
    // given up after 2 s.
    'server_connect_timeout = 2',
    'server_login_retry = 1',
    'query_wait_timeout = 5',
    '',
  ].join('\n');

export const startPgbouncer = async (
  settings: Omit<PgbouncerSettings, 'port' | 'authFile'>,
): Promise<PgbouncerForPostgres> => {
  await ensureDebianPackage(binary, 'pgbouncer');
  const runner = await choosePostgresRunner(binary);
  const dir = await mkdtemp(path.join(tmpdir(), 'flotilla-pgbouncer-'));
  // Readable to the "postgres" system user when PgBouncer runs as it.
  await chmod(dir, 0o755);
  const port = await freePort();
  const config = path.join(dir, 'pgbouncer.ini');
  const authFile = path.join(dir, 'userlist.txt');
  const write = async (serverPort: number): Promise<void> => {
    await writeFile(config, pgbouncerConfig({ ...settings, port, serverPort, authFile }));
  };
  await write(settings.serverPort);
  await writeFile(authFile, '"flotilla" ""\n');
  await ensureClusterOwner(dir, clusterOwnerOf(runner));

  const admin = async <Row extends object>(command: string): Promise<Row[]> => {
    const client = new pg.Client({
      connectionString: `postgres://flotilla@127.0.0.1:${port}/pgbouncer`,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<Row>(command)).rows;
    } finally {
      await client.end();
    }
  };

  const invocation = invocationOf(runner, binary, [config]);
  const { close } = await startProxyProcess({
    name: 'PgBouncer',
    ...invocation,
    dir,
    ready: async () => (await admin('SHOW VERSION')).length > 0,
  });

  return {
    port,
    via: (url) => throughProxy(url, port),
    admin,
    async repoint(serverPort) {
      await admin(`KILL ${settings.database}`);
      await write(serverPort);
      await admin('RELOAD');
      await admin(`RESUME ${settings.database}`);
    },
    close,
  };
};
