import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from './infra/db/database.js';
import {
  bindInstallation,
  installationFileName,
} from './infra/installation/installation-binding.js';
import { registerRepositoryRemoval } from './features/git-remote/repository-removal.js';
import { registerReleaseAssets } from './features/release-assets/register-release-assets.js';
import { orphanGraceMs } from './features/release-assets/asset-sweep.js';
import { createFleet, createOrganization } from './test-support/fixtures.js';
import { createTestApp, createTestContext } from './test-support/test-context.js';
import { createTestDatabase } from './test-support/test-database.js';

// The startup sweeps delete release-asset files and git repositories the database does not
// name: only when the database and the data directory belong to each other.

let db: Database;
let dataDir: string;
const unknownAsset = randomBytes(16).toString('hex');
const unknownRepository = `${randomBytes(16).toString('hex')}.git`;
const queuedFleet = randomBytes(16).toString('hex');

beforeEach(async () => {
  db = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-sweeps-'));
  // A database with fleets (the orphan-repository guard for an empty database is not what
  // protects here), and files it does not know: another installation's.
  await createFleet(db, await createOrganization(db, 'Sweeps'), 'known');
  await db.query('INSERT INTO "fleet_repository_removal" ("fleet_uuid") VALUES ($1)', [
    queuedFleet,
  ]);
  await mkdir(path.join(dataDir, 'release-assets'), { recursive: true });
  const asset = path.join(dataDir, 'release-assets', unknownAsset);
  await writeFile(asset, 'payload');
  const old = new Date(Date.now() - 2 * orphanGraceMs);
  await utimes(asset, old, old);
  for (const name of [unknownRepository, `${queuedFleet}.git`]) {
    await mkdir(path.join(dataDir, 'git', name, 'objects'), { recursive: true });
  }
});

afterEach(async () => {
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

// Starts the sweeping features on this database and data directory, and stops them once their
// startup sweeps are done (closing waits for a running sweep).
const startAndStop = async (): Promise<void> => {
  const installation = await bindInstallation(db, dataDir);
  const ctx = createTestContext(db, { config: { dataDir }, installation });
  // The repository removal's first round runs at once; later rounds never come.
  const firstRoundOnly = (task: () => void, ms: number): (() => void) => {
    if (ms === 0) task();
    return () => undefined;
  };
  const app = await createTestApp(ctx, registerReleaseAssets, (instance, context) =>
    registerRepositoryRemoval(instance, context, { schedule: firstRoundOnly }),
  );
  await app.close();
};

const files = async (): Promise<string[]> => [
  ...(await readdir(path.join(dataDir, 'release-assets'))),
  ...(await readdir(path.join(dataDir, 'git'))),
];

describe('the file sweeps', () => {
  it('remove what the database does not name when the data directory is its own', async () => {
    await startAndStop();
    expect(await files()).toEqual([]);
  });

  it("leave every file alone when the data directory is another installation's", async () => {
    await writeFile(
      path.join(dataDir, installationFileName),
      JSON.stringify({ id: 'another-installation', starts: 3 }),
    );
    const before = (await files()).sort();
    await startAndStop();
    expect((await files()).sort()).toEqual(before);
    expect(before).toHaveLength(3);
  });
});
