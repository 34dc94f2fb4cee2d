// `npm run bench`: install what is missing, then run the benchmark (packages/server/bench) from
// TypeScript sources. The `source` export condition makes @flotilla/shared resolve to its .ts
// files, so nothing needs building first; --expose-gc lets the cloudlink scenario measure memory
// after a full collection.
import { ensureDependencies, run } from './ensure-deps.mjs';

ensureDependencies();
try {
  // The console's cold-load line measures the built console: build the current one (seconds).
  run('npm run build -w packages/web');
  run(
    'npx tsx --expose-gc --conditions=source --tsconfig packages/server/tsconfig.test.json packages/server/bench/run-bench.ts',
  );
} catch (error) {
  // The benchmark printed its own diagnostics; keep its exit code without a stack trace.
  process.exit(typeof error?.status === 'number' ? error.status : 1);
}
