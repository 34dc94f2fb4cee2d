// The registry-token tests run a real CNCF distribution registry (Debian's docker-registry) that
// checks Flotilla's tokens itself (packages/server/src/features/registry).
import { ensureDebianPackage } from './ensure-debian-package.mjs';

export const ensureRegistry = () =>
  ensureDebianPackage({
    program: '/usr/bin/docker-registry',
    pkg: 'docker-registry',
    why: 'for the registry-token tests',
  });
