// The browser tests drive Debian's Chromium.
import { ensureDebianPackage } from './ensure-debian-package.mjs';

export const chromiumPath = '/usr/bin/chromium';

export const ensureChromium = () =>
  ensureDebianPackage({ program: chromiumPath, pkg: 'chromium', why: 'for the browser tests' });
