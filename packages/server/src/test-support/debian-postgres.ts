import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  type PostgresProcess,
  runToEnd,
  startPostgresProcess,
} from '../infra/db/postgres-process.js';
import {
  choosePostgresRunner,
  clusterOwnerOf,
  ensureClusterOwner,
  type PostgresRunner,
} from '../infra/db/postgres-runner.js';
import { freePort } from './free-port.js';

// Clusters of Debian's PostgreSQL (the `postgresql` package, as CI's second half uses), for
// tests that need more than the run's one server: a primary, streaming replicas made with
// `pg_basebackup -R`, promotion and an immediate shutdown. Each runs in its own process group
// (postgres-process.ts); kill() ends it whatever state it is in.

const run = promisify(execFile);

// Installs a Debian package when its program is missing (as `npm test` installs the ones it needs).
export const ensureDebianPackage = async (program: string, pkg: string): Promise<void> => {
  if (existsSync(program)) return;
  const asRoot = (args: string[]) =>
    process.getuid?.() === 0 ? run(args[0] ?? 'true', args.slice(1)) : run('sudo', ['-n', ...args]);
  await asRoot(['apt-get', 'update', '-qq']);
  await asRoot(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', pkg]);
};

const debianBinDir = async (): Promise<string> => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) await ensureDebianPackage(`${root}/none`, 'postgresql');
  const majors = (await readdir(root)).filter((name) => /^\d+$/.test(name));
  const newest = majors.sort((a, b) => Number(a) - Number(b)).pop();
  if (newest === undefined) throw new Error(`No PostgreSQL under ${root}`);
  return path.join(root, newest, 'bin');
};

export type DebianCluster = {
  port: number;
  // postgres://flotilla@127.0.0.1:<port>/<database>, with optional query parameters.
  url(database: string, params?: Record<string, string>): string;
  // Runs one statement on a fresh connection (admin work: promote, settings, checks).
  sql<Row extends object = Record<string, unknown>>(
    database: string,
    text: string,
    values?: unknown[],
  ): Promise<Row[]>;
  // SIGQUIT: PostgreSQL's immediate shutdown, no checkpoint, sessions cut (as a crash).
  stopImmediately(): Promise<void>;
  // Ends the process group if it still runs and deletes the cluster.
  remove(): Promise<void>;
};

type Setup = { bin: string; runner: PostgresRunner; dir: string };

const prepare = async (): Promise<Setup> => {
  const bin = await debianBinDir();
  const runner = await choosePostgresRunner(path.join(bin, 'postgres'));
  const dir = await mkdtemp(path.join(tmpdir(), 'flotilla-pg-'));
  // Readable to the "postgres" system user when PostgreSQL runs as it.
  await chmod(dir, 0o755);
  await ensureClusterOwner(dir, clusterOwnerOf(runner));
  return { bin, runner, dir };
};

const quiet = (): undefined => undefined;

const started = async (setup: Setup, settings: string[]): Promise<DebianCluster> => {
  const { bin, runner, dir } = setup;
  const pgDir = path.join(dir, 'data');
  const port = await freePort();
  const process_: PostgresProcess = await startPostgresProcess({
    runner,
    postgres: path.join(bin, 'postgres'),
    pgDir,
    port,
    log: quiet,
    settings,
  });
  const url = (database: string, params: Record<string, string> = {}): string => {
    const result = new URL(`postgres://flotilla@127.0.0.1:${port}/${database}`);
    for (const [key, value] of Object.entries(params)) result.searchParams.set(key, value);
    return result.toString();
  };
  return {
    port,
    url,
    async sql<Row extends object>(database: string, text: string, values: unknown[] = []) {
      const client = new pg.Client({ connectionString: url(database) });
      await client.connect();
      try {
        return (await client.query<Row>(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    async stopImmediately() {
      process_.signal('SIGQUIT');
      await process_.exited;
    },
    async remove() {
      try {
        process.kill(-process_.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      await process_.exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
};

// A new cluster (superuser "flotilla", trust on loopback, replication allowed).
export const startPrimary = async (): Promise<DebianCluster> => {
  const setup = await prepare();
  const pgDir = path.join(setup.dir, 'data');
  await runToEnd(
    setup.runner,
    path.join(setup.bin, 'initdb'),
    ['-D', pgDir, '-U', 'flotilla', '--auth=trust', '--no-sync'],
    quiet,
  );
  return started(setup, []);
};

// A streaming replica of `primary`, made as an operator would (`pg_basebackup -R`: the copy
// plus standby.signal and primary_conninfo), named so the primary can require it as synchronous.
export const startReplica = async (
  primary: DebianCluster,
  name: string,
): Promise<DebianCluster> => {
  const setup = await prepare();
  const pgDir = path.join(setup.dir, 'data');
  await runToEnd(
    setup.runner,
    path.join(setup.bin, 'pg_basebackup'),
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'flotilla',
      '-D',
      pgDir,
      '-R',
      '-c',
      'fast',
      '-N',
    ],
    quiet,
  );
  return started(setup, ['-c', `cluster_name=${name}`]);
};
