// `npm test`: install what is missing, then type-check, lint and run every test project
// (unit, integration against a real PostgreSQL, and the balena-sdk contract tests).
import { ensureDependencies, run } from './ensure-deps.mjs';

ensureDependencies();
run('npx tsc -b packages/server packages/server/tsconfig.test.json');
run('npx eslint . --max-warnings 0');
run('npx prettier --check .');
run('npx vitest run');
