import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertClusterVersion, binaryMajorVersion } from './postgres-version.js';
import { findPostgresBinaries } from './postgres-binaries.js';

describe('the embedded cluster version check', () => {
  let dir = '';
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads the major version of the shipped postgres', async () => {
    const { postgres } = await findPostgresBinaries();
    expect(await binaryMajorVersion(postgres)).toBeGreaterThanOrEqual(14);
  });

  it('accepts a cluster of the same major version and names the upgrade path otherwise', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'flotilla-pgversion-'));
    await writeFile(path.join(dir, 'PG_VERSION'), '17\n');
    await expect(assertClusterVersion(dir, 17)).resolves.toBeUndefined();
    await writeFile(path.join(dir, 'PG_VERSION'), '16\n');
    await expect(assertClusterVersion(dir, 17)).rejects.toThrow(
      /made by PostgreSQL 16.*ships PostgreSQL 17.*npm run backup.*npm run restore/s,
    );
  });
});
