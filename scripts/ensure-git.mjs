// The git remote's tests push with the real git client, and the server runs `git http-backend`
// (packages/server/src/features/git-remote); install Debian's git when it is missing (root, apt).
import { execFileSync, execSync } from 'node:child_process';

const hasGit = () => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export const ensureGit = () => {
  if (hasGit()) return;
  console.log("Installing Debian's git for the git remote and its tests ...");
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  execSync(
    `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git`,
    { stdio: 'inherit' },
  );
};
