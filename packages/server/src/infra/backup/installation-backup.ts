import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../db/database.js';
import { accessInstallationDatabase } from '../db/embedded-access.js';
import type { EmbeddedLog } from '../db/embedded-postgres.js';
import { rekeyInstallation } from '../installation/installation-binding.js';
import {
  type BackupManifest,
  filesDirName,
  readManifest,
  writeManifest,
} from './backup-manifest.js';
import { copyDataFiles, isEmptyDirectory } from './data-files.js';
import { type DatabaseDump, dumpDatabase } from './database-dump.js';
import { loadDatabase } from './database-load.js';

export type Installation = { databaseUrl: string | undefined; dataDir: string };

type Say = (line: string) => void;

const quietLog: EmbeddedLog = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
};

// Backs an installation up into `target` (a new directory): the database's rows as of one
// snapshot, then the data directory's files. The manifest is written last: a directory without
// it is an interrupted backup.
export const backupInstallation = async (
  installation: Installation,
  target: string,
  say: Say = () => undefined,
): Promise<void> => {
  if (!(await isEmptyDirectory(target))) {
    throw new Error(`${target} is not empty: back up into a new directory`);
  }
  // Never a new embedded cluster: a mistyped data directory is an error, not an empty backup.
  if (
    !existsSync(installation.dataDir) ||
    (!installation.databaseUrl &&
      !existsSync(path.join(installation.dataDir, 'postgres', 'PG_VERSION')))
  ) {
    throw new Error(`${installation.dataDir} holds no Flotilla installation`);
  }
  await mkdir(target, { recursive: true, mode: 0o700 });
  try {
    const database = await dumpInstallationDatabase(installation, target, say);
    say(`Backing up the files of ${installation.dataDir} ...`);
    await copyDataFiles(installation.dataDir, path.join(target, filesDirName));
    await writeManifest(target, { format: 1, createdAt: new Date().toISOString(), ...database });
    const rows = database.tables.reduce((sum, table) => sum + table.rows, 0);
    say(`Backed up ${rows} rows of ${database.tables.length} tables and the files into ${target}`);
  } catch (error) {
    // Half a backup is no backup: leave nothing that could be mistaken for one.
    await rm(target, { recursive: true, force: true });
    throw error;
  }
};

const dumpInstallationDatabase = async (
  installation: Installation,
  target: string,
  say: Say,
): Promise<DatabaseDump> => {
  const access = await accessInstallationDatabase({ ...installation, log: quietLog });
  try {
    const db = openDatabase(access.url, { max: 1 });
    try {
      say('Backing up the database ...');
      return await dumpDatabase(db, target);
    } finally {
      await db.close();
    }
  } finally {
    await access.release();
  }
};

// Restores a backup into a new data directory (refused when it is not empty, unless forced) and
// its database: DATABASE_URL's (which must be empty), else a new embedded PostgreSQL in it. The
// restored installation gets an id of its own.
export const restoreInstallation = async (
  source: string,
  installation: Installation,
  options: { force?: boolean; say?: Say } = {},
): Promise<void> => {
  const say = options.say ?? (() => undefined);
  const manifest = await readManifest(source);
  const { dataDir } = installation;
  const wasEmpty = await isEmptyDirectory(dataDir);
  if (!options.force && !wasEmpty) {
    throw new Error(
      `${dataDir} is not empty: restore into a new data directory (or add --force to write ` +
        'into this one)',
    );
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    say(`Restoring the files into ${dataDir} ...`);
    const files = path.join(source, filesDirName);
    if ((await stat(files).catch(() => undefined))?.isDirectory()) {
      await copyDataFiles(files, dataDir);
    }
    await loadInstallationDatabase(source, installation, manifest, say);
  } catch (error) {
    // Half a restore is not an installation to start: a new directory is emptied again.
    if (wasEmpty) await emptyDirectory(dataDir);
    throw error;
  }
  say(`Restored the backup of ${manifest.createdAt} into ${dataDir}`);
};

const loadInstallationDatabase = async (
  source: string,
  installation: Installation,
  manifest: BackupManifest,
  say: Say,
): Promise<void> => {
  const access = await accessInstallationDatabase({ ...installation, log: quietLog });
  try {
    const db = openDatabase(access.url, { max: 1 });
    try {
      say('Restoring the database ...');
      await loadDatabase(db, source, manifest);
      await rekeyInstallation(db, installation.dataDir);
    } finally {
      await db.close();
    }
  } finally {
    await access.release();
  }
};

const emptyDirectory = async (dir: string): Promise<void> => {
  for (const name of await readdir(dir)) {
    await rm(path.join(dir, name), { recursive: true, force: true });
  }
};
