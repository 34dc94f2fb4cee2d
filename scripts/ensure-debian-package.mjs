// Installs a Debian package that a test needs when its program is missing (as root, or through
// sudo for an ordinary user): `npm test` works on a fresh machine with only Node and npm.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// `program`: an absolute path, or a command looked up on the PATH.
const present = (program) => {
  if (program.startsWith('/')) return existsSync(program);
  try {
    execFileSync(program, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export const ensureDebianPackage = ({ program, pkg, why }) => {
  if (present(program)) return;
  console.log(`Installing Debian's ${pkg} ${why} ...`);
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  execSync(
    `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${pkg}`,
    { stdio: 'inherit' },
  );
};
