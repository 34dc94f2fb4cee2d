// `npm start`: install what is missing, build the server and the console, then run the server
// (which starts the embedded PostgreSQL, migrates, creates the first administrator and serves the
// console and the API on one port).
import { ensureDependencies, run } from './ensure-deps.mjs';

ensureDependencies();
run('npm run build');
await import('../packages/server/dist/main.js');
