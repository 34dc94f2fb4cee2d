#!/usr/bin/env node
import { loadConfig } from './infra/config/config.js';
import { startServer } from './start-server.js';

const config = loadConfig();
const server = await startServer(config);
const consoleUrl = server.url.replace('127.0.0.1', 'localhost');
console.log(`Flotilla is serving the console and API at ${consoleUrl}`);

let stopping = false;
const shutdown = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received, stopping ...`);
  server.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
