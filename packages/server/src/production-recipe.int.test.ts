import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';

// The production recipe of docs/PRODUCTION.md as shipped in deploy/: the built server started as
// the systemd unit starts it (its ExecStart and environment, the example environment file), on an
// external PostgreSQL database it migrates from empty, behind Debian's nginx with the shipped site
// configuration and a self-signed certificate, driven over TLS. systemd itself is not needed: the
// test runs the unit's command line with the unit's environment.

const repo = path.resolve(import.meta.dirname, '../../..');
const deployDir = path.join(repo, 'deploy');
const host = 'flotilla.test';
const deviceBase = `devices.${host}`;
const adminPassword = 'production-recipe-1';

type Response = { status: number; headers: http.IncomingHttpHeaders; body: string };

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

// KEY=VALUE lines of an environment file or of a unit's Environment= settings.
const assignments = (lines: string[]): Record<string, string> =>
  Object.fromEntries(
    lines
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => {
        const at = line.indexOf('=');
        return [line.slice(0, at), line.slice(at + 1)];
      }),
  );

const unitSetting = (unit: string, key: string): string[] =>
  unit
    .split('\n')
    .filter((line) => line.startsWith(`${key}=`))
    .map((line) => line.slice(key.length + 1));

describe('the production recipe: the built server under its unit, behind nginx over TLS', () => {
  let work: string;
  let server: ChildProcess | undefined;
  let nginx: ChildProcess | undefined;
  let serverExit: Promise<number | null>;
  let httpsPort = 0;
  let httpPort = 0;
  let ca: string;
  let stdout = '';
  let dropDatabase: () => Promise<void> = async () => undefined;

  const request = (
    port: number,
    options: { path: string; host?: string; method?: string; body?: string; tls?: boolean },
  ): Promise<Response> =>
    new Promise((resolve, reject) => {
      const send = options.tls === false ? http.request : https.request;
      const headers: Record<string, string> = { host: options.host ?? host, accept: 'text/html' };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const outgoing = send(
        {
          host: '127.0.0.1',
          port,
          path: options.path,
          method: options.method ?? 'GET',
          headers,
          ...(options.tls === false ? {} : { ca, servername: options.host ?? host }),
        },
        (incoming) => {
          let body = '';
          incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
          incoming.on('end', () =>
            resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }),
          );
        },
      );
      outgoing.on('error', reject);
      // A port that accepts but never answers (another test's, while nginx starts) fails too.
      outgoing.setTimeout(10_000, () => outgoing.destroy(new Error('no answer in 10 s')));
      outgoing.end(options.body);
    });

  const errorLog = (): Promise<string> =>
    readFile(path.join(work, 'nginx-error.log'), 'utf8').catch(() => '');

  // Starts nginx with `site` on two free ports; false when one was taken before nginx bound it.
  const startNginx = async (site: string): Promise<boolean> => {
    httpsPort = await freePort();
    httpPort = await freePort();
    const temp = (name: string) => `${name}_temp_path ${path.join(work, name)};`;
    await writeFile(
      path.join(work, 'nginx.conf'),
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${path.join(work, 'nginx.pid')};`,
        `error_log ${path.join(work, 'nginx-error.log')} warn;`,
        'events { worker_connections 256; }',
        'http {',
        '  access_log off;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${temp(name)}`),
        site
          .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
          .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`),
        '}',
      ].join('\n'),
    );
    await rm(path.join(work, 'nginx-error.log'), { force: true });
    // -e: the start-up error log too is the test's (an ordinary user cannot open nginx's own).
    const nginxArgs = ['-p', work, '-e', path.join(work, 'nginx-error.log')];
    const started = spawn('/usr/sbin/nginx', [...nginxArgs, '-c', path.join(work, 'nginx.conf')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    nginx = started;
    const exited = new Promise<void>((resolve) => started.once('exit', () => resolve()));
    // nginx has no ready line: the TLS port answers, with our certificate, when it is up.
    const since = Date.now();
    for (;;) {
      try {
        await request(httpsPort, { path: '/ping' });
        return true;
      } catch (error) {
        if (started.exitCode !== null || started.signalCode !== null) {
          await exited;
          const log = await errorLog();
          if (log.includes('Address already in use')) return false;
          throw new Error(`nginx stopped: ${log}`);
        }
        if (Date.now() - since > 30_000) {
          throw new Error(`nginx did not come up: ${String(error)} ${await errorLog()}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'flotilla-production-'));
    // nginx's workers (nobody, when the test runs as root) read their temporary directories here.
    await chmod(work, 0o755);
    // The build the unit starts (npm test has built it; this brings a stale one up to date).
    execFileSync(process.execPath, [path.join(repo, 'node_modules/typescript/bin/tsc'), '-b'], {
      cwd: path.join(repo, 'packages/server'),
      stdio: 'inherit',
    });

    // An empty external database: the first start migrates it.
    const adminUrl = inject('postgresAdminUrl');
    const name = `flotilla_prod_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0`);
    await admin.end();
    dropDatabase = async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    };
    const databaseUrl = new URL(adminUrl);
    databaseUrl.pathname = `/${name}`;

    // A self-signed certificate for the console's host and the device URLs.
    const key = path.join(work, 'privkey.pem');
    const cert = path.join(work, 'fullchain.pem');
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'],
        ...['-nodes', '-days', '2', '-keyout', key, '-out', cert, '-subj', `/CN=${host}`],
        ...['-addext', `subjectAltName=DNS:${host},DNS:*.${deviceBase}`],
      ],
      { stdio: 'ignore' },
    );
    ca = await readFile(cert, 'utf8');

    // The server as the unit starts it.
    const unit = await readFile(path.join(deployDir, 'flotilla.service'), 'utf8');
    const envFile = await readFile(path.join(deployDir, 'flotilla.env'), 'utf8');
    const dataDir = path.join(work, 'state');
    await mkdir(dataDir, { mode: 0o700 });
    const [execStart] = unitSetting(unit, 'ExecStart');
    const command = (execStart ?? '')
      .replaceAll('/opt/flotilla', repo)
      .split(' ')
      .filter((part) => part !== '');
    expect(command[0]).toBe('/usr/bin/node');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: work,
      ...assignments(unitSetting(unit, 'Environment')),
      ...assignments(envFile.split('\n')),
      // The machine's own values where the examples name example.com and /var/lib.
      FLOTILLA_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl.toString(),
      PORT: '0',
      FLOTILLA_JWT_SECRET: randomBytes(48).toString('base64'),
      FLOTILLA_PUBLIC_URL: `https://${host}`,
      FLOTILLA_DEVICE_URLS_BASE: deviceBase,
      FLOTILLA_ADMIN_EMAIL: 'ops@example.com',
      FLOTILLA_ADMIN_PASSWORD: adminPassword,
    };
    server = spawn(process.execPath, command.slice(1), {
      cwd: repo,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const child = server;
    serverExit = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const upstream = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner in 90 s: ${stdout}`)), 90_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /"banner":\{[^}]*"url":"http:\/\/[^:]+:(\d+)/.exec(stdout);
        if (!match?.[1]) return;
        clearTimeout(timer);
        resolve(match[1]);
      });
      void serverExit.then((code) => reject(new Error(`exited (${code}): ${stdout}${stderr}`)));
    });

    // nginx with the shipped site, on this machine's ports and certificate. A free port can be
    // taken by another test between our look and nginx's bind: then nginx says so and exits, and
    // it starts again on other ports.
    const site = (await readFile(path.join(deployDir, 'nginx-flotilla.conf'), 'utf8'))
      .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${upstream};`)
      .replaceAll('flotilla.example.com', host)
      .replace(/^\s*listen \[::\].*$/gm, '')
      .replace('/etc/ssl/flotilla/fullchain.pem', cert)
      .replace('/etc/ssl/flotilla/privkey.pem', key);
    for (let attempt = 1; !(await startNginx(site)); attempt += 1) {
      if (attempt === 5) throw new Error('nginx found no free ports in 5 attempts');
    }
  }, 300_000);

  afterAll(async () => {
    nginx?.kill('SIGTERM');
    if (server?.exitCode === null) server.kill('SIGKILL');
    await dropDatabase().catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  });

  it('migrates the empty database and serves the API and the console over TLS', async () => {
    const ping = await request(httpsPort, { path: '/ping' });
    expect(ping).toMatchObject({ status: 200, body: 'OK' });
    const console = await request(httpsPort, { path: '/fleets' });
    expect(console.status).toBe(200);
    expect(console.body).toContain('<div id="root">');
    expect(String(console.headers['content-security-policy'])).toContain("script-src 'self'");
    // The administrator of the environment signs in through the proxy.
    const login = await request(httpsPort, {
      path: '/login_',
      method: 'POST',
      body: JSON.stringify({ username: 'ops@example.com', password: adminPassword }),
    });
    expect(login.status).toBe(200);
    expect(stdout).toContain('Applied migrations');
  });

  it('redirects plain http to https', async () => {
    const plain = await request(httpPort, { path: '/fleets?x=1', tls: false });
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe(`https://${host}/fleets?x=1`);
  });

  it('passes websockets and the public device URL hosts through', async () => {
    // ws hands these to https.request, which takes the TLS server name too.
    const tlsOptions = { ca, servername: host, headers: { host } };
    const socket = new WebSocket(`wss://127.0.0.1:${httpsPort}/terminal/v1`, tlsOptions);
    const refusal = await new Promise<{ code: number; last: string }>((resolve, reject) => {
      let last = '';
      socket.on('open', () => socket.send('not a terminal message'));
      socket.on('message', (data: Buffer) => (last = data.toString()));
      socket.on('close', (code) => resolve({ code, last }));
      socket.on('error', reject);
    });
    expect(refusal.code).toBe(4403);
    expect(JSON.parse(refusal.last)).toMatchObject({ type: 'refused', reason: 'invalid' });

    const deviceHost = `${'0'.repeat(32)}.${deviceBase}`;
    const deviceUrl = await request(httpsPort, { path: '/', host: deviceHost });
    expect(deviceUrl.status).toBe(404);
    expect(deviceUrl.body).toContain('Device URL not found');
  });

  it('stops in order on SIGTERM, as systemd stops it, with exit code 0', async () => {
    server?.kill('SIGTERM');
    expect(await serverExit).toBe(0);
  });
});
