// `npm start`: install what is missing, build, then run the server (which starts the embedded
// PostgreSQL, migrates, creates the first administrator and serves the API).
import { ensureDependencies, run } from './ensure-deps.mjs';

ensureDependencies();
run('npx tsc -b packages/server');
await import('../packages/server/dist/main.js');
