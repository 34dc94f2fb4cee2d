// The git remote's tests push with the real git client, and the server runs `git http-backend`
// (packages/server/src/features/git-remote).
import { ensureDebianPackage } from './ensure-debian-package.mjs';

export const ensureGit = () =>
  ensureDebianPackage({
    program: 'git',
    pkg: 'git',
    why: 'for the git remote and its tests',
  });
