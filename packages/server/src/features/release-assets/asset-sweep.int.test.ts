import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../infra/db/database.js';
import { createFleet, createOrganization, createRelease } from '../../test-support/fixtures.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { orphanGraceMs, sweepAssetFiles, uploadExpiryMs } from './asset-sweep.js';

const uuid = (digit: string): string => digit.repeat(32);

describe('release asset file sweep', () => {
  let db: Database;
  let dataDir: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-sweep-'));
  });

  afterAll(async () => {
    await db?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('removes old files no asset names and abandoned uploads, keeps the rest', async () => {
    const organization = await createOrganization(db, 'Sweep');
    const fleet = await createFleet(db, organization, 'sweep');
    const release = await createRelease(db, fleet.id, 'sweepcommit');
    await db.query(
      `INSERT INTO "release_asset" ("release", "asset_key", "asset") VALUES ($1, 'kept', $2::jsonb)`,
      [release, JSON.stringify({ uuid: uuid('a') })],
    );
    const directory = path.join(dataDir, 'release-assets');
    await mkdir(path.join(directory, 'uploads', uuid('d')), { recursive: true });
    await mkdir(path.join(directory, 'uploads', uuid('e')), { recursive: true });
    for (const name of [uuid('a'), uuid('b'), uuid('c'), `${uuid('f')}.partial`]) {
      await writeFile(path.join(directory, name), 'x');
    }
    const now = new Date('2026-11-25T12:00:00Z');
    const age = async (name: string, ms: number) => {
      const time = new Date(now.getTime() - ms);
      await utimes(path.join(directory, name), time, time);
    };
    await age(uuid('a'), 2 * orphanGraceMs);
    await age(uuid('b'), 2 * orphanGraceMs);
    await age(uuid('c'), orphanGraceMs / 2);
    await age(`${uuid('f')}.partial`, 2 * orphanGraceMs);
    await age(`uploads/${uuid('d')}`, 2 * uploadExpiryMs);
    await age(`uploads/${uuid('e')}`, uploadExpiryMs / 2);

    const removed = await sweepAssetFiles(db, dataDir, now);
    expect(removed.sort()).toEqual([uuid('b'), `${uuid('f')}.partial`, `uploads/${uuid('d')}`]);
    expect((await readdir(directory)).sort()).toEqual([uuid('a'), uuid('c'), 'uploads']);
    expect(await readdir(path.join(directory, 'uploads'))).toEqual([uuid('e')]);
  });
});
