import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../../start-server.js';
import { loadConfig } from '../config/config.js';

// PostgreSQL refuses to run as root. The embedded one must start for root in a private
// directory (a new VM's /root/flotilla, mode 700) and for an ordinary user alike.

const asRoot = userInfo().uid === 0;
const fixture = path.join(import.meta.dirname, 'embedded-postgres-child.fixture.ts');

const uidOfProcess = async (pid: number): Promise<number> => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
};

const passwdEntry = (name: string): { uid: number; gid: number } | undefined => {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  return uid && gid ? { uid: Number(uid), gid: Number(gid) } : undefined;
};

// Whether `user` can read the repository's sources (to run the fixture as them).
const canRead = (user: { uid: number; gid: number }, file: string): boolean => {
  try {
    execFileSync('/bin/sh', ['-c', 'test -r "$1"', 'sh', file], user);
    return true;
  } catch {
    return false;
  }
};

// As root, the ordinary user is "nobody", who must be able to read this checkout to run the
// fixture (not so in a private directory such as /root/flotilla: then that case is skipped).
const nobody = asRoot ? passwdEntry('nobody') : undefined;
const ordinaryUserSkip = !asRoot
  ? undefined
  : !nobody
    ? 'there is no "nobody" user'
    : !canRead(nobody, fixture)
      ? `"nobody" cannot read ${fixture}`
      : undefined;

type Child = { url: string; postmaster: number; stop(): Promise<number | null> };

// The fixture in its own process (as `user` when given), resolved once its PostgreSQL is ready.
const startFixture = (
  dataDir: string,
  user: { uid: number; gid: number; home: string } | undefined,
): Promise<Child> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=source', fixture, dataDir],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(user ? { uid: user.uid, gid: user.gid, env: { ...process.env, HOME: user.home } } : {}),
      },
    );
    let output = '';
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready (\S+) (\d+)/.exec(output);
      if (!match?.[1] || !match[2]) return;
      resolve({
        url: match[1],
        postmaster: Number(match[2]),
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) => reject(new Error(`the fixture exited (${code}): ${output}`)));
  });

const selectOne = async (url: string): Promise<unknown> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT 1 AS one')).rows;
  } finally {
    await client.end();
  }
};

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the embedded PostgreSQL and who runs it', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it.skipIf(!asRoot)(
    `serves the whole server for root from a mode-700 directory${asRoot ? '' : ' (skipped: these tests do not run as root)'}`,
    async () => {
      // Like /root/flotilla on a new VM: nobody but root may enter.
      const home = await mkdtemp(path.join(tmpdir(), 'flotilla-root-home-'));
      dirs.push(home);
      const checkout = path.join(home, 'flotilla');
      await mkdir(checkout, { mode: 0o700 });
      await chmod(home, 0o700);
      const dataDir = path.join(checkout, 'data');
      const config = loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        FLOTILLA_DATA_DIR: dataDir,
        FLOTILLA_DEMO: 'off',
        FLOTILLA_ADMIN_EMAIL: 'root@example.com',
        FLOTILLA_ADMIN_PASSWORD: 'private-directory',
        FLOTILLA_LOG_LEVEL: 'silent',
      });
      const first = await startServer(config, () => undefined);
      try {
        expect(await (await fetch(`${first.url}/ping`)).text()).toBe('OK');
        const login = await fetch(`${first.url}/login_`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'root@example.com', password: 'private-directory' }),
        });
        expect(login.status).toBe(200);
        const organizations = await fetch(`${first.url}/v7/organization?$select=handle`, {
          headers: { authorization: `Bearer ${await login.text()}` },
        });
        expect(organizations.status).toBe(200);
        // PostgreSQL is root outside its user namespace; its files stay root's, mode 700.
        const postmaster = first.embeddedPostgresPid();
        expect(postmaster).toBeDefined();
        expect(await uidOfProcess(postmaster ?? -1)).toBe(0);
        const cluster = await stat(path.join(dataDir, 'postgres'));
        expect([cluster.uid, cluster.mode & 0o777]).toEqual([0, 0o700]);
        expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
      } finally {
        await first.stop();
      }

      // A cluster an earlier version made for the "postgres" user is taken back.
      execFileSync('chown', ['-R', '65534:65534', path.join(dataDir, 'postgres')]);
      const second = await startServer(config, () => undefined);
      try {
        expect((await fetch(`${second.url}/ready`)).status).toBe(200);
        expect((await stat(path.join(dataDir, 'postgres', 'base'))).uid).toBe(0);
      } finally {
        await second.stop();
      }
    },
    180_000,
  );

  it.skipIf(ordinaryUserSkip !== undefined)(
    `runs for an ordinary user${ordinaryUserSkip ? ` (skipped: ${ordinaryUserSkip})` : ''}`,
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'flotilla-user-'));
      dirs.push(dir);
      let user: { uid: number; gid: number; home: string } | undefined;
      if (nobody) {
        // Root runs the fixture as "nobody", in a directory of theirs.
        await chown(dir, nobody.uid, nobody.gid);
        user = { ...nobody, home: dir };
      }
      const child = await startFixture(path.join(dir, 'data'), user);
      try {
        expect(await selectOne(child.url)).toEqual([{ one: 1 }]);
        expect(await uidOfProcess(child.postmaster)).toBe(user?.uid ?? userInfo().uid);
      } finally {
        expect(await child.stop()).toBe(0);
      }
      expect(isAlive(child.postmaster)).toBe(false);
    },
    120_000,
  );
});
