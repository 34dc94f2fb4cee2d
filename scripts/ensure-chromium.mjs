// The browser tests drive Debian's Chromium; install it when it is missing (root, apt).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const chromiumPath = '/usr/bin/chromium';

export const ensureChromium = () => {
  if (existsSync(chromiumPath)) return;
  console.log("Installing Debian's chromium for the browser tests ...");
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  execSync(
    `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`,
    {
      stdio: 'inherit',
    },
  );
};
