import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

// The major version of a PostgreSQL program, from `postgres --version` ("postgres (PostgreSQL)
// 17.10"). Any user may ask for it, root included.
export const binaryMajorVersion = async (postgres: string): Promise<number> => {
  const { stdout } = await execFileAsync(postgres, ['--version'], { timeout: 30_000 });
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
  if (!match?.[1])
    throw new Error(`Cannot tell the version of ${postgres} from "${stdout.trim()}"`);
  return Number(match[1]);
};

// A cluster is readable only by the major version that made it (PG_VERSION holds that major).
// Starting another one fails with a terse FATAL; say what happened and how to upgrade instead.
export const assertClusterVersion = async (pgDir: string, binaryMajor: number): Promise<void> => {
  const text = (await readFile(path.join(pgDir, 'PG_VERSION'), 'utf8')).trim();
  const clusterMajor = Number(text);
  if (clusterMajor === binaryMajor) return;
  throw new Error(
    `The embedded database in ${pgDir} was made by PostgreSQL ${text}, and this Flotilla ships ` +
      `PostgreSQL ${binaryMajor}: it cannot open it. To move an installation to another ` +
      'PostgreSQL major version, back it up with the Flotilla version that made it ' +
      '(`npm run backup -- <dir>`), then restore it with this one (`npm run restore -- <dir> ' +
      '--data-dir <new dir>`); see "Backups, restore and upgrades" in the README.',
  );
};
