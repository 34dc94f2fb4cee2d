// `npm test`: install what is missing (npm packages; Debian's chromium, git, docker-registry,
// docker.io, busybox-static, nginx-light and nats-server; balena-cli in the user's cache),
// type-check, lint, build the console (which enforces its size budget), then run every test
// project: unit, integration against a real PostgreSQL, the balena-sdk contract tests and the
// browser tests.
import { ensureBalenaCli } from './ensure-balena-cli.mjs';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureDebianPackage } from './ensure-debian-package.mjs';
import { ensureDependencies, run } from './ensure-deps.mjs';
import { ensureDocker } from './ensure-docker.mjs';
import { ensureGit } from './ensure-git.mjs';
import { ensureRegistry } from './ensure-registry.mjs';

ensureDependencies();
ensureChromium();
ensureGit();
ensureRegistry();
ensureDocker();
ensureBalenaCli();
ensureDebianPackage({
  program: '/usr/sbin/nginx',
  pkg: 'nginx-light',
  why: 'for the production recipe test (deploy/nginx-flotilla.conf)',
});
ensureDebianPackage({
  program: '/usr/sbin/nats-server',
  pkg: 'nats-server',
  why: 'for the message bus tests (FLOTILLA_NATS_URL)',
});
run('npm run typecheck');
run('npx eslint . --max-warnings 0');
run('npx prettier --check .');
run('npm run build');
run('npx vitest run');
