#!/usr/bin/env node
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './infra/config/config.js';
import { backupInstallation, restoreInstallation } from './infra/backup/installation-backup.js';

// `npm run backup -- <dir>` / `npm run restore -- <dir> [--data-dir DIR] [--force]` (or
// `flotilla-backup backup|restore ...`): the installation is the one the environment configures
// (DATABASE_URL, FLOTILLA_DATA_DIR), as for the server. See README "Backups, restore and upgrades".

const usage =
  'usage: backup <new backup directory> [--data-dir DIR]\n' +
  '       restore <backup directory> [--data-dir DIR] [--force]';

// npm runs scripts from the repository root; paths the operator typed are relative to where
// they typed them.
const fromCaller = (file: string): string => path.resolve(process.env.INIT_CWD ?? '.', file);

const main = async (): Promise<void> => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { 'data-dir': { type: 'string' }, force: { type: 'boolean', default: false } },
  });
  const [command, target, ...rest] = positionals;
  if (!target || rest.length > 0 || (command !== 'backup' && command !== 'restore')) {
    throw new Error(usage);
  }
  const config = loadConfig(process.env);
  const dataDir =
    values['data-dir'] === undefined ? config.dataDir : fromCaller(values['data-dir']);
  const installation = { databaseUrl: config.databaseUrl, dataDir };
  const say = (line: string): void => console.log(line);
  if (command === 'backup') await backupInstallation(installation, fromCaller(target), say);
  else await restoreInstallation(fromCaller(target), installation, { force: values.force, say });
};

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
