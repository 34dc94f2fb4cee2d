import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded-postgres.js';

const query = async (url: string, sql: string): Promise<unknown[]> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
};

// Starts a separate process holding an embedded PostgreSQL and resolves once it is ready.
const startChild = (dataDir: string): Promise<{ pid: number; url: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--conditions=source',
        path.join(import.meta.dirname, 'embedded-postgres-child.fixture.ts'),
        dataDir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready (\S+)/.exec(output);
      if (match?.[1] && child.pid !== undefined) resolve({ pid: child.pid, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`child exited with ${String(code)}: ${output}`)));
  });

describe('embedded PostgreSQL', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('restarts cleanly after its server was killed with SIGKILL', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-pg-'));
    dirs.push(dataDir);
    const child = await startChild(dataDir);
    await query(child.url, 'CREATE TABLE survivor (id int); INSERT INTO survivor VALUES (42)');
    process.kill(child.pid, 'SIGKILL');
    // The killed process's PostgreSQL is still running and holds postmaster.pid.
    const leftover = Number(
      (await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    expect(() => process.kill(leftover, 0)).not.toThrow();

    const again = await startEmbeddedPostgres({ dataDir, port: 0 });
    try {
      expect(await query(again.url, 'SELECT id FROM survivor')).toEqual([{ id: 42 }]);
      expect(() => process.kill(leftover, 0)).toThrow();
      // It listens on loopback only.
      const [setting] = (await query(again.url, 'SHOW listen_addresses')) as {
        listen_addresses: string;
      }[];
      expect(setting?.listen_addresses).toBe('127.0.0.1');
    } finally {
      await again.stop();
    }
  }, 120_000);

  it('starts over after an interrupted initdb', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-pg-'));
    dirs.push(dataDir);
    // What initdb killed half-way leaves: a cluster being built, never renamed into place.
    await mkdir(path.join(dataDir, 'postgres.initdb', 'base'), { recursive: true });
    await writeFile(path.join(dataDir, 'postgres.initdb', 'PG_VERSION'), '17\n');
    const database = await startEmbeddedPostgres({ dataDir, port: 0 });
    try {
      expect(await query(database.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(existsSync(path.join(dataDir, 'postgres.initdb'))).toBe(false);
    } finally {
      await database.stop();
    }
  }, 120_000);

  it('ignores a stale postmaster.pid whose process is gone', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-pg-'));
    dirs.push(dataDir);
    const first = await startEmbeddedPostgres({ dataDir, port: 0 });
    await first.stop();
    await writeFile(
      path.join(dataDir, 'postgres', 'postmaster.pid'),
      `999999\n${path.join(dataDir, 'postgres')}\n`,
    );
    const second = await startEmbeddedPostgres({ dataDir, port: 0 });
    try {
      expect(await query(second.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
