import { loadConfig } from '@flotilla/server/infra/config/config';
import { startServer } from '@flotilla/server/start-server';
import { urlMarker } from './server-process.js';

// A whole Flotilla server in its own process, for tests that need two processes on one database
// (server-process.ts spawns it). The configuration comes from the environment the launcher
// passes; the one line on stdout starting with `urlMarker` tells the launcher where it listens.
// Everything else the server prints goes to stderr.

const server = await startServer(loadConfig(process.env), (line) =>
  process.stderr.write(`${line}\n`),
);
process.stdout.write(`${urlMarker}${server.url}\n`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  server.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`stopping failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The launcher holds our stdin open: when the test process dies without killing us, it closes.
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
