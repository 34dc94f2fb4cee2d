// Makes the upgrade test's fixture (packages/server/test-fixtures/upgrade/): the database of a
// server of a previous tagged version, as an operator would have it, dumped with pg_dump.
//
//   node scripts/make-upgrade-fixture.mjs [tag]      (default v0.1.0; run as root or with sudo)
//
// It checks the tag out into a temporary git worktree (sharing this checkout's node_modules, the
// tag's own packages linked in place of this one's), starts Debian's PostgreSQL on a scratch
// cluster, runs the tag's server on it once (its migrations, first administrator and demo seed),
// signs in, registers two devices with the demo's provisioning keys, stops the server, and writes
//   <tag>.sql.gz  pg_dump --inserts of that database (plain SQL, restorable without psql)
//   <tag>.json    what the test checks against: the session token, the administrator, devices
// The server's signing secret is fixed here, so the session token stays valid for the test.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ensureDebianPackage } from './ensure-debian-package.mjs';

const tag = process.argv[2] ?? 'v0.1.0';
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(repo, 'packages/server/test-fixtures/upgrade');
// Test-only values: the fixture holds nothing else secret.
const jwtSecret = 'upgrade-fixture-signing-secret-not-for-production';
const admin = { email: 'admin@upgrade.example', password: 'upgrade-fixture-password' };

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const run = (command, args, options = {}) =>
  execFileSync(command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 512 * 1024 * 1024,
    ...options,
  });

ensureDebianPackage({
  program: '/usr/bin/pg_dump',
  pkg: 'postgresql',
  why: 'for the scratch database and pg_dump',
});
const pgBin = path.join(
  '/usr/lib/postgresql',
  readdirSync('/usr/lib/postgresql').sort().at(-1) ?? '15',
  'bin',
);
const asPostgres = process.getuid?.() === 0;

const work = mkdtempSync(path.join(tmpdir(), 'flotilla-upgrade-fixture-'));
chmodSync(work, 0o755);
const tree = path.join(work, 'src');
const cluster = path.join(work, 'pg');
const dataDir = path.join(work, 'data');
let pgStarted = false;
let server;

const pg = (tool, args) => {
  const command = path.join(pgBin, tool);
  if (asPostgres)
    return run('su', [
      'postgres',
      '-s',
      '/bin/sh',
      '-c',
      [command, ...args].map((a) => `'${a}'`).join(' '),
    ]);
  return run(command, args);
};

try {
  // The tag's tree, with this checkout's dependencies and the tag's own workspace packages.
  run('git', ['-C', repo, 'worktree', 'add', '--detach', tree, tag], { stdio: 'ignore' });
  const modules = path.join(tree, 'node_modules');
  mkdirSync(path.join(modules, '@flotilla'), { recursive: true });
  for (const entry of readdirSync(path.join(repo, 'node_modules'))) {
    if (entry === '@flotilla' || entry === '.bin') continue;
    symlinkSync(path.join(repo, 'node_modules', entry), path.join(modules, entry));
  }
  for (const pkg of readdirSync(path.join(tree, 'packages'))) {
    const manifest = path.join(tree, 'packages', pkg, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (name?.startsWith('@flotilla/')) {
      symlinkSync(path.join(tree, 'packages', pkg), path.join(modules, name));
    }
  }

  // A scratch cluster of Debian's PostgreSQL (pg_dump of the same version).
  mkdirSync(cluster);
  if (asPostgres) run('chown', ['postgres', cluster]);
  const pgPort = await freePort();
  pg('initdb', ['-D', path.join(cluster, 'data'), '-U', 'flotilla', '--auth=trust']);
  pg('pg_ctl', [
    '-D',
    path.join(cluster, 'data'),
    '-l',
    path.join(cluster, 'log'),
    '-o',
    `-p ${pgPort} -c listen_addresses=127.0.0.1 -k ${cluster}`,
    '-w',
    'start',
  ]);
  pgStarted = true;
  const databaseUrl = `postgres://flotilla@127.0.0.1:${pgPort}/postgres`;

  // The tag's server, once: migrations, the administrator and the demo.
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=source', 'packages/server/src/main.ts'],
    {
      cwd: tree,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        FLOTILLA_DATA_DIR: dataDir,
        FLOTILLA_JWT_SECRET: jwtSecret,
        FLOTILLA_ADMIN_EMAIL: admin.email,
        FLOTILLA_ADMIN_PASSWORD: admin.password,
        FLOTILLA_DEMO: 'on',
        FLOTILLA_EMBEDDED_REGISTRY: 'off',
        FLOTILLA_LOG_LEVEL: 'warn',
      },
    },
  );
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The ${tag} server exited (${server.exitCode})`);
    const ready = await fetch(`${base}/ping`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`The ${tag} server did not answer /ping`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  const call = async (method, url, token, body) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
    return text;
  };
  const token = await call('POST', '/login_', undefined, {
    username: admin.email,
    password: admin.password,
  });
  const fleets = JSON.parse(readFileSync(path.join(dataDir, 'demo-fleets.json'), 'utf8'));
  const devices = [];
  for (const fleet of fleets.slice(0, 2)) {
    const found = JSON.parse(
      await call('GET', `/v7/application?$select=id&$filter=slug eq '${fleet.slug}'`, token),
    );
    const uuid = randomBytes(16).toString('hex');
    await call('POST', '/device/register', fleet.provisioningKey, {
      application: found.d[0].id,
      uuid,
      device_type: fleet.deviceType,
    });
    devices.push({ uuid, fleet: fleet.slug, deviceType: fleet.deviceType });
  }
  const releases = JSON.parse(await call('GET', '/v7/release?$select=id,commit', token)).d;

  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  server = undefined;

  const dump = pg('pg_dump', [
    '--no-owner',
    '--no-privileges',
    '--inserts',
    '--rows-per-insert=200',
    '-d',
    databaseUrl,
  ]);
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, `${tag}.sql.gz`), gzipSync(dump, { level: 9 }));
  writeFileSync(
    path.join(out, `${tag}.json`),
    `${JSON.stringify(
      {
        tag,
        jwtSecret,
        admin,
        sessionToken: token,
        devices,
        releases: releases.map((release) => release.commit),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`Wrote ${path.relative(repo, out)}/${tag}.sql.gz and ${tag}.json`);
} finally {
  if (server !== undefined) server.kill('SIGKILL');
  if (pgStarted) {
    try {
      pg('pg_ctl', ['-D', path.join(cluster, 'data'), '-m', 'immediate', 'stop']);
    } catch {
      // Already stopped.
    }
  }
  try {
    run('git', ['-C', repo, 'worktree', 'remove', '--force', tree], { stdio: 'ignore' });
  } catch {
    // Not created.
  }
  rmSync(work, { recursive: true, force: true });
}
