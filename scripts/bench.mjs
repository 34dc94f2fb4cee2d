// `npm run bench [-- --quick | --full] [-- --scale]`: install what is missing, build the server
// (the bench measures the built server, as it runs in production), then run the orchestrator
// (packages/server/bench/run-bench.ts) from TypeScript sources; the `source` export condition
// makes @flotilla/shared resolve to its .ts files there.
import { ensureDependencies, run } from './ensure-deps.mjs';

ensureDependencies();
const args = process.argv.slice(2).join(' ');
try {
  // The console's cold-load line measures the built console: build the current one (seconds).
  run('npm run build -w packages/web');
  run('npx tsc -b packages/server');
  // The agent's footprint is measured on the package devices install (one bundled cli.js).
  run('npx tsc -b packages/agent && node scripts/build-agent-package.mjs');
  run(
    `npx tsx --conditions=source --tsconfig packages/server/tsconfig.test.json packages/server/bench/run-bench.ts ${args}`,
  );
} catch (error) {
  // The benchmark printed its own diagnostics; keep its exit code without a stack trace.
  process.exit(typeof error?.status === 'number' ? error.status : 1);
}
