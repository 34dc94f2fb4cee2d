// `npm test`: install what is missing (npm packages, Debian's chromium, git and docker-registry),
// type-check, lint, build the console (which enforces its size budget), then run every test
// project: unit, integration against a real PostgreSQL, the balena-sdk contract tests and the
// browser tests.
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureDependencies, run } from './ensure-deps.mjs';
import { ensureGit } from './ensure-git.mjs';
import { ensureRegistry } from './ensure-registry.mjs';

ensureDependencies();
ensureChromium();
ensureGit();
ensureRegistry();
run('npm run typecheck');
run('npx eslint . --max-warnings 0');
run('npx prettier --check .');
run('npm run build');
run('npx vitest run');
