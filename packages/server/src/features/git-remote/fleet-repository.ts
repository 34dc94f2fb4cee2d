import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { VisibleFleet } from '../builder/visible-fleet.js';
import { type GitCommand, gitEnvironment } from './git-command.js';

// The fleet a remote's URL names, as its caller may see it (builder/visible-fleet.ts).
export type RemoteFleet = VisibleFleet;

// Where the fleets' bare repositories live; each is named by the fleet's uuid (never reused, even
// by a new database beside an old data directory), so nothing from a URL becomes part of a path.
export const repositoriesDir = (dataDir: string): string => path.join(dataDir, 'git');

export const repositoryName = (fleetUuid: string): string => {
  if (!/^[0-9a-f]{32,62}$/.test(fleetUuid)) throw new Error(`Unexpected fleet uuid ${fleetUuid}`);
  return `${fleetUuid}.git`;
};

export type FleetRepositories = {
  // The fleet's bare repository, created on first use (branch main); its absolute path.
  ensure(fleet: RemoteFleet): Promise<string>;
};

export const createFleetRepositories = (dataDir: string, git: GitCommand): FleetRepositories => {
  const root = repositoriesDir(dataDir);
  // One creation per fleet at a time (two first pushes at once).
  const creating = new Map<string, Promise<string>>();
  const create = async (dir: string): Promise<string> => {
    await mkdir(root, { recursive: true });
    // Creates the repository, or leaves an existing one as it is.
    await git.run(['init', '--quiet', '--bare', '--initial-branch=main', dir], gitEnvironment({}));
    return dir;
  };
  const known = new Set<string>();
  return {
    async ensure(fleet) {
      const dir = path.join(root, repositoryName(fleet.uuid));
      if (known.has(dir)) return dir;
      const pending = creating.get(dir) ?? create(dir);
      creating.set(dir, pending);
      try {
        await pending;
        known.add(dir);
        return dir;
      } finally {
        creating.delete(dir);
      }
    },
  };
};
