// Installs the workspace's npm dependencies when they are missing or older than the lockfile, so
// `npm start` and `npm test` work on a fresh clone with nothing but Node and npm.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

export const ensureDependencies = () => {
  const marker = 'node_modules/.package-lock.json';
  const stale =
    !existsSync(marker) ||
    (existsSync('package-lock.json') &&
      statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs);
  if (!stale) return;
  console.log('Installing dependencies (npm ci) ...');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
};

export const run = (command, options = {}) => {
  console.log(`\n$ ${command}`);
  execSync(command, { stdio: 'inherit', ...options });
};
