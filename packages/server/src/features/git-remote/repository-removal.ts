import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppContext, messageBusOf } from '../../app-context.js';
import type { Queryable } from '../../infra/db/database.js';
import { registerPeriodicTask, type Schedule } from '../../infra/scheduling/periodic-task.js';
import { repositoriesDir, repositoryName } from './fleet-repository.js';

// The channel the deletion of a fleet notifies, once it commits
// (migrations/0030-cleanup.sql).
export const repositoryRemovalChannel = 'flotilla_fleet_repository';

// Queued removals are retried this often (a notification missed while the bus was down, a
// directory that could not be removed).
export const repositoryRemovalIntervalMs = 10 * 60_000;

const batch = 100;

type Log = { warn(details: object, message: string): void };

// Removes the repositories of deleted fleets queued by the database, each row once its
// directory is gone; one that cannot be removed is logged and stays queued. Answers the uuids
// removed. Two processes may remove the same directory: rm with force lets both succeed.
export const removeDeletedRepositories = async (
  db: Queryable,
  dataDir: string,
  log: Log,
): Promise<string[]> => {
  const removed: string[] = [];
  const { rows } = await db.query<{ fleet_uuid: string }>(
    `SELECT "fleet_uuid" FROM "fleet_repository_removal" ORDER BY "queued_at" LIMIT ${batch}`,
  );
  for (const { fleet_uuid: uuid } of rows) {
    try {
      await rm(path.join(repositoriesDir(dataDir), repositoryName(uuid)), {
        recursive: true,
        force: true,
      });
    } catch (error) {
      log.warn({ err: error, fleetUuid: uuid }, 'could not remove the git repository of a fleet');
      continue;
    }
    await db.query('DELETE FROM "fleet_repository_removal" WHERE "fleet_uuid" = $1', [uuid]);
    removed.push(uuid);
  }
  return removed;
};

const repositoryPattern = /^([0-9a-f]{32,62})\.git$/;

// Repositories whose fleet no longer exists, left by deletions from before the queue existed or
// by a push that created a repository while its fleet was being deleted. A database without any
// fleet beside existing repositories is more likely the wrong database than one whose fleets
// were all deleted (those went through the queue), so nothing is removed then.
export const removeOrphanRepositories = async (
  db: Queryable,
  dataDir: string,
  log: Log,
): Promise<string[]> => {
  let names: string[];
  try {
    names = await readdir(repositoriesDir(dataDir));
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
  const uuids = names.flatMap((name) => repositoryPattern.exec(name)?.[1] ?? []);
  if (uuids.length === 0) return [];
  const { rows } = await db.query<{ uuid: string | null; any_fleet: boolean }>(
    `SELECT a."uuid", EXISTS (SELECT 1 FROM "application") AS "any_fleet"
       FROM unnest($1::text[]) AS u("uuid")
       LEFT JOIN "application" a ON a."uuid" = u."uuid"`,
    [uuids],
  );
  if (!rows.some((row) => row.any_fleet)) {
    log.warn(
      { repositories: uuids.length },
      'git repositories found but no fleet in the database: none removed',
    );
    return [];
  }
  const existing = new Set(rows.flatMap((row) => (row.uuid === null ? [] : [row.uuid])));
  const orphans = uuids.filter((uuid) => !existing.has(uuid));
  const removed: string[] = [];
  for (const uuid of orphans) {
    try {
      await rm(path.join(repositoriesDir(dataDir), repositoryName(uuid)), {
        recursive: true,
        force: true,
      });
      removed.push(uuid);
    } catch (error) {
      log.warn({ err: error, fleetUuid: uuid }, 'could not remove an orphan git repository');
    }
  }
  return removed;
};

// Removes a deleted fleet's repository right after its deletion commits (on the notification),
// and every interval; orphans when the server is ready and every interval (a process whose data
// directory is not shared removes its copy so, once another process emptied the queue). Failures are logged and retried,
// never an error of the request that deleted the fleet.
export const registerRepositoryRemoval = (
  app: FastifyInstance,
  ctx: AppContext,
  options: { schedule?: Schedule } = {},
): void => {
  const dataDir = ctx.config.dataDir;
  let closed = false;
  // One removal at a time; a request arriving meanwhile runs once more after it.
  let running: Promise<void> | undefined;
  let again = false;
  const removeQueued = (): Promise<void> => {
    if (ctx.installation.kind === 'mismatch') return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await removeDeletedRepositories(ctx.db, dataDir, app.log);
        } catch (error) {
          app.log.warn({ err: error }, 'could not remove the git repositories of deleted fleets');
        }
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };
  const subscription = messageBusOf(ctx).listen(repositoryRemovalChannel, () => {
    void removeQueued();
  });
  const removeOrphans = async (): Promise<void> => {
    try {
      await removeOrphanRepositories(ctx.db, dataDir, app.log);
    } catch (error) {
      app.log.warn({ err: error }, 'could not look for orphan git repositories');
    }
  };
  // Another database's fleets say nothing about these repositories (the start said so).
  if (ctx.installation.kind !== 'mismatch') {
    app.addHook('onReady', async () => {
      await removeOrphans();
    });
    registerPeriodicTask(app, {
      run: async () => {
        await Promise.all([removeQueued(), removeOrphans()]);
      },
      intervalMs: repositoryRemovalIntervalMs,
      firstRunMs: 0,
      failure: 'could not remove the git repositories of deleted fleets',
      schedule: options.schedule,
    });
  }
  app.addHook('onClose', async () => {
    closed = true;
    subscription.close();
    await running;
  });
};
