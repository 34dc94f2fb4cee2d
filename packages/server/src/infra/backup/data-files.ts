import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';

// What of a data directory is not the installation's to back up: the embedded PostgreSQL's
// cluster and password (the database goes through its rows, and a restore makes its own
// cluster), the installation file (a restore gets a new id), files mid-write.
const isLocalToThisCopy = (name: string): boolean =>
  name === 'postgres' ||
  name === 'postgres.initdb' ||
  name === 'postgres-password' ||
  name === 'installation' ||
  name.startsWith('.initdb-password-') ||
  name.startsWith('test-postgres-') ||
  name.endsWith('.tmp');

// Copies the data directory's files (secrets, git repositories, release assets, the registry
// token key...) with their modes and times; symbolic links stay links.
export const copyDataFiles = async (from: string, to: string): Promise<void> => {
  const root = path.resolve(from);
  await cp(root, to, {
    recursive: true,
    preserveTimestamps: true,
    verbatimSymlinks: true,
    filter: (source) => {
      const relative = path.relative(root, path.resolve(source));
      const top = relative.split(path.sep)[0] ?? '';
      return relative === '' || !isLocalToThisCopy(top);
    },
  });
};

// Whether a directory is missing or empty (a restore's target must be, unless forced).
export const isEmptyDirectory = async (dir: string): Promise<boolean> => {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return true;
    throw error;
  }
};
