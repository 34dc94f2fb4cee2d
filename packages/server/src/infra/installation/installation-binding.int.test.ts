import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import {
  bindInstallation,
  installationFileName,
  rekeyInstallation,
} from './installation-binding.js';

let db: Database;
let dataDir: string;

beforeEach(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-installation-'));
});

afterEach(async () => {
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

const fileOf = async (dir: string): Promise<unknown> =>
  JSON.parse(await readFile(path.join(dir, installationFileName), 'utf8'));

const rowOf = async (): Promise<unknown> =>
  (await db.query('SELECT "id", "starts"::int AS "starts" FROM "flotilla_installation"')).rows[0];

describe('the installation binding of a database and its data directory', () => {
  it('is created at the first start, in both, and counts every start', async () => {
    const first = await bindInstallation(db, dataDir);
    expect(first.kind).toBe('bound');
    const id = first.kind === 'bound' ? first.id : '';
    expect(await fileOf(dataDir)).toEqual({ id, starts: 1 });
    expect(await bindInstallation(db, dataDir)).toEqual({ kind: 'bound', id });
    expect(await fileOf(dataDir)).toEqual({ id, starts: 2 });
    expect(await rowOf()).toEqual({ id, starts: 2 });
  });

  it('is adopted by a data directory without the file (it predates the binding)', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'flotilla-installation-'));
    try {
      const first = await bindInstallation(db, other);
      expect(await bindInstallation(db, dataDir)).toEqual(first);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('is a mismatch for another database: without an id, or with another one', async () => {
    await writeFile(path.join(dataDir, installationFileName), '{"id":"elsewhere","starts":4}');
    const empty = await bindInstallation(db, dataDir);
    expect(empty).toMatchObject({ kind: 'mismatch' });
    expect(empty.kind === 'mismatch' ? empty.reason : '').toMatch(
      /belongs to installation elsewhere, but the database has no installation id.*sweeps are off/s,
    );
    // Nothing written on a mismatch: a later start with the right database still matches.
    expect(await rowOf()).toBeUndefined();
    await db.query(`INSERT INTO "flotilla_installation" ("id", "starts") VALUES ('mine', 9)`);
    const other = await bindInstallation(db, dataDir);
    expect(other.kind === 'mismatch' ? other.reason : '').toMatch(
      /belongs to installation elsewhere, the database to installation mine/,
    );
    expect(await fileOf(dataDir)).toEqual({ id: 'elsewhere', starts: 4 });
  });

  it('is a mismatch for an older copy of its own database (fewer starts than the files saw)', async () => {
    const bound = await bindInstallation(db, dataDir);
    await bindInstallation(db, dataDir);
    // What a dump taken after the first start, restored in place, would hold.
    await db.query('UPDATE "flotilla_installation" SET "starts" = 1');
    const older = await bindInstallation(db, dataDir);
    expect(older.kind === 'mismatch' ? older.reason : '').toMatch(/The database is older than/);
    expect(bound.kind).toBe('bound');
  });

  it('takes a new id on a restored copy', async () => {
    const bound = await bindInstallation(db, dataDir);
    const id = await rekeyInstallation(db, dataDir);
    expect(bound).not.toEqual({ kind: 'bound', id });
    expect(await bindInstallation(db, dataDir)).toEqual({ kind: 'bound', id });
  });
});

describe('a data directory from before the binding', () => {
  it('with repositories, beside a database this start created, is a lasting mismatch', async () => {
    await mkdir(path.join(dataDir, 'git', `${'a'.repeat(32)}.git`), { recursive: true });
    const first = await bindInstallation(db, dataDir, { databaseIsNew: true });
    expect(first.kind === 'mismatch' ? first.reason : '').toMatch(
      /The database is new, but the data directory .* already holds git repositories/,
    );
    // The next start (the database no longer new) is still refused, until the file is deleted.
    expect((await bindInstallation(db, dataDir)).kind).toBe('mismatch');
    await rm(path.join(dataDir, installationFileName));
    expect((await bindInstallation(db, dataDir)).kind).toBe('bound');
  });

  it('without repositories or assets, beside a new database, is simply bound', async () => {
    expect((await bindInstallation(db, dataDir, { databaseIsNew: true })).kind).toBe('bound');
  });
});
