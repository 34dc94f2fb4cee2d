import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../infra/db/database.js';
import { registerODataRoutes } from '../../infra/odata/register-odata-routes.js';
import {
  addOrganizationMember,
  createFleet,
  createOrganization,
  createUser,
} from '../../test-support/fixtures.js';
import { createTestApp, createTestContext } from '../../test-support/test-context.js';
import { createTestDatabase } from '../../test-support/test-database.js';
import { waitFor } from '../../test-support/wait-for.js';
import { issueSessionToken } from '../auth/issue-session-token.js';
import { registerFleetHooks } from '../fleets/fleet-hooks.js';
import type { Schedule } from '../../infra/scheduling/periodic-task.js';
import { repositoriesDir, repositoryName } from './fleet-repository.js';
import {
  registerRepositoryRemoval,
  removeDeletedRepositories,
  removeOrphanRepositories,
  repositoryRemovalIntervalMs,
} from './repository-removal.js';

// A fleet's bare repository (<data dir>/git/<uuid>.git) goes with the fleet, however the fleet is
// deleted, once the deletion commits; repositories of fleets that no longer exist are removed
// when the server is ready.

let db: Database;
let ctx: AppContext;
let app: FastifyInstance;
let dataDir: string;
let token = '';
let organization = 0;
const scheduled: { task: () => void; ms: number }[] = [];
const schedule: Schedule = (task, ms) => {
  const entry = { task, ms };
  scheduled.push(entry);
  return () => scheduled.splice(scheduled.indexOf(entry), 1);
};
const silent = { warn: () => undefined };

const directoryOf = (uuid: string): string =>
  path.join(repositoriesDir(dataDir), repositoryName(uuid));

// A repository as the git remote leaves it: a directory with files.
const repositoryFor = async (uuid: string): Promise<void> => {
  await mkdir(path.join(directoryOf(uuid), 'objects'), { recursive: true });
  await writeFile(path.join(directoryOf(uuid), 'HEAD'), 'ref: refs/heads/main\n');
};

const exists = (dir: string): Promise<boolean> =>
  stat(dir).then(
    () => true,
    () => false,
  );

const queued = async (): Promise<string[]> =>
  (
    await db.query<{ fleet_uuid: string }>(
      'SELECT "fleet_uuid" FROM "fleet_repository_removal" ORDER BY "fleet_uuid"',
    )
  ).rows.map((row) => row.fleet_uuid);

const orphanUuid = randomBytes(16).toString('hex');
let survivor = { id: 0, uuid: '' };

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'flotilla-repository-removal-'));
  db = await createTestDatabase();
  ctx = createTestContext(db, { config: { dataDir } });
  registerFleetHooks(ctx.hooks);
  const owner = await createUser(db, 'owner');
  organization = await createOrganization(db, 'acme');
  await addOrganizationMember(db, owner.userId, organization, 'administrator');
  token = await issueSessionToken(ctx, db, owner.userId);
  survivor = await createFleet(db, organization, 'survivor');
  await repositoryFor(survivor.uuid);
  // A repository whose fleet was deleted before the server started.
  await repositoryFor(orphanUuid);
  app = await createTestApp(ctx, registerODataRoutes, (instance, context) =>
    registerRepositoryRemoval(instance, context, { schedule }),
  );
});

afterAll(async () => {
  await app.close();
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('git repositories of deleted fleets', () => {
  it('removes orphans when the server is ready, and keeps the repositories of fleets', async () => {
    expect(await exists(directoryOf(orphanUuid))).toBe(false);
    expect(await exists(directoryOf(survivor.uuid))).toBe(true);
    expect(scheduled.map((entry) => entry.ms)).toEqual([0]);
  });

  it('removes the repository once a DELETE /v7/application commits', async () => {
    const fleet = await createFleet(db, organization, 'doomed');
    await repositoryFor(fleet.uuid);
    const response = await app.inject({
      method: 'DELETE',
      url: `/v7/application(${fleet.id})`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    // On the notification, without the periodic run.
    await waitFor(
      'the repository to be removed',
      async () => !(await exists(directoryOf(fleet.uuid))),
    );
    await waitFor('the queue to be emptied', async () => (await queued()).length === 0);
    expect(await exists(directoryOf(survivor.uuid))).toBe(true);
  });

  it('removes the repositories of the fleets of a deleted organization', async () => {
    const other = await createOrganization(db, 'gone');
    const fleets = [await createFleet(db, other, 'one'), await createFleet(db, other, 'two')];
    for (const fleet of fleets) await repositoryFor(fleet.uuid);
    await db.query('DELETE FROM "organization" WHERE "id" = $1', [other]);
    for (const fleet of fleets) {
      await waitFor(
        'the repository to be removed',
        async () => !(await exists(directoryOf(fleet.uuid))),
      );
    }
    await waitFor('the queue to be emptied', async () => (await queued()).length === 0);
  });

  it('keeps the repository when the deletion rolls back', async () => {
    const fleet = await createFleet(db, organization, 'kept');
    await repositoryFor(fleet.uuid);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('DELETE FROM "application" WHERE "id" = $1', [fleet.id]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await ctx.notifications.sync();
    expect(await queued()).toEqual([]);
    expect(await exists(directoryOf(fleet.uuid))).toBe(true);
  });

  it('retries queued removals and removes orphans on every interval', async () => {
    // A removal queued while no server listened (the notification is lost).
    const uuid = randomBytes(16).toString('hex');
    await repositoryFor(uuid);
    await db.query('INSERT INTO "fleet_repository_removal" ("fleet_uuid") VALUES ($1)', [uuid]);
    expect(await exists(directoryOf(uuid))).toBe(true);
    // And an orphan left meanwhile (a process whose data directory is not shared).
    const orphan = randomBytes(16).toString('hex');
    await repositoryFor(orphan);
    scheduled.shift()?.task();
    await waitFor('the next run to be scheduled', () => scheduled.length > 0);
    expect(scheduled.map((entry) => entry.ms)).toEqual([repositoryRemovalIntervalMs]);
    expect(await exists(directoryOf(uuid))).toBe(false);
    expect(await exists(directoryOf(orphan))).toBe(false);
    expect(await exists(directoryOf(survivor.uuid))).toBe(true);
    expect(await queued()).toEqual([]);
    // A queued fleet without a repository (it never had a push) is dropped from the queue too.
    await db.query('INSERT INTO "fleet_repository_removal" ("fleet_uuid") VALUES ($1)', [
      randomBytes(16).toString('hex'),
    ]);
    expect(await removeDeletedRepositories(db, dataDir, silent)).toHaveLength(1);
    expect(await queued()).toEqual([]);
  });

  it('logs a repository it cannot remove and keeps it queued', async () => {
    // No notification of an earlier test left to make the server empty the queue meanwhile.
    await ctx.notifications.sync();
    // A data directory whose git folder is a file: every removal fails (ENOTDIR).
    const broken = await mkdtemp(path.join(tmpdir(), 'flotilla-repository-broken-'));
    try {
      await writeFile(path.join(broken, 'git'), '');
      const uuid = randomBytes(16).toString('hex');
      await db.query('INSERT INTO "fleet_repository_removal" ("fleet_uuid") VALUES ($1)', [uuid]);
      const warnings: string[] = [];
      const log = { warn: (_details: object, message: string) => void warnings.push(message) };
      expect(await removeDeletedRepositories(db, broken, log)).toEqual([]);
      expect(warnings).toEqual(['could not remove the git repository of a fleet']);
      expect(await queued()).toEqual([uuid]);
      await db.query('DELETE FROM "fleet_repository_removal"');
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  });

  it('removes no orphans from a database without any fleet (likely the wrong database)', async () => {
    const uuid = randomBytes(16).toString('hex');
    await repositoryFor(uuid);
    await db
      .transaction(async (tx) => {
        await tx.query('DELETE FROM "application"');
        expect(await removeOrphanRepositories(tx, dataDir, silent)).toEqual([]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await exists(directoryOf(uuid))).toBe(true);
    expect(await exists(directoryOf(survivor.uuid))).toBe(true);
    expect(await removeOrphanRepositories(db, dataDir, silent)).toEqual([uuid]);
    expect(await exists(directoryOf(survivor.uuid))).toBe(true);
  });
});
