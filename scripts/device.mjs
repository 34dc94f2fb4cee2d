// `npm run device -- --fleet <organization>/<fleet>`: this machine becomes a real device of the
// fleet, next to `npm start`. It downloads the fleet's config.json once (into
// data/devices/<organization>-<fleet>/, kept for the next run so the device keeps its identity),
// then runs the agent in real mode: with Docker (or balena-engine, or Podman's socket through
// DOCKER_HOST) the fleet's releases run in containers; without one it says so and runs as a host
// device. The credential is an API key or session token in FLOTILLA_TOKEN, or --email with the
// password in FLOTILLA_PASSWORD (npm prints a script's arguments: a --password would show).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureDependencies, run } from './ensure-deps.mjs';

const { values } = parseArgs({
  options: {
    fleet: { type: 'string' },
    api: { type: 'string', default: `http://127.0.0.1:${process.env.PORT ?? '8080'}` },
    email: { type: 'string' },
    password: { type: 'string' },
    dir: { type: 'string' },
    engine: { type: 'string', default: 'auto' },
  },
});
if (!values.fleet || !/^[^/\s]+\/[^/\s]+$/.test(values.fleet)) {
  console.error(
    'Usage: npm run device -- --fleet <organization>/<fleet> [--api URL] [--email E] [--engine auto|none|<socket>] [--dir DIR]\n' +
      'Credential: FLOTILLA_TOKEN=<API key or session token>, or --email with FLOTILLA_PASSWORD=<password>.',
  );
  process.exit(2);
}

ensureDependencies();
if (
  !existsSync('packages/agent/dist/cli.js') ||
  !existsSync('packages/agent/dist/join-fleet.js') ||
  !existsSync('packages/agent/dist/node-flags.js')
) {
  run('npx tsc -b packages/agent');
}
const { joinFleet, JoinFleetError } = await import('../packages/agent/dist/join-fleet.js');
const dir = path.resolve(
  values.dir ??
    path.join(process.env.FLOTILLA_DATA_DIR ?? 'data', 'devices', values.fleet.replace('/', '-')),
);
const configPath = path.join(dir, 'config.json');
try {
  const outcome = await joinFleet({
    api: values.api,
    fleet: values.fleet,
    configPath,
    token: process.env.FLOTILLA_TOKEN,
    email: values.email,
    password: values.password ?? process.env.FLOTILLA_PASSWORD,
    containerEngine: values.engine,
  });
  console.log(
    outcome === 'created'
      ? `Wrote ${configPath} for fleet ${values.fleet}`
      : `Using ${configPath} (delete it to join again)`,
  );
} catch (error) {
  if (!(error instanceof JoinFleetError)) throw error;
  console.error(`npm run device: ${error.message}`);
  process.exit(1);
}
const { agentNodeFlags } = await import('../packages/agent/dist/node-flags.js');
const agent = spawn(
  process.execPath,
  [...agentNodeFlags, 'packages/agent/dist/cli.js', '--config', configPath],
  { stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => agent.kill(signal));
agent.on('exit', (code) => process.exit(code ?? 1));
