// `npm start`: install what is missing, build everything, run the server (which starts the
// embedded PostgreSQL, migrates, creates the first administrator and the demo fleets, and serves
// the console and the API on one port), then simulated devices streaming state and logs into the
// demo fleets (FLOTILLA_SIMULATED_DEVICES, default 25; 0 turns them off). Ctrl-C stops the
// devices, then the server, then the database; a second Ctrl-C forces the exit.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDependencies, run } from './ensure-deps.mjs';

ensureDependencies();
run('npm run build');
// A registry of its own and the local container engine as the builder, unless the operator
// configured others: with Docker and Debian's docker-registry present, the demo's first release
// is built for real and `npm run device` runs it (the banner says when it cannot).
process.env.FLOTILLA_EMBEDDED_REGISTRY ??= 'auto';
// The demo bills (manual provider): its organization is on a paid plan, paid a year ahead
// (docs/BILLING.md). FLOTILLA_BILLING=off runs it without billing.
if (process.env.FLOTILLA_DEMO !== 'off') process.env.FLOTILLA_BILLING ??= 'on';
if (process.env.FLOTILLA_BUILDER_DOCKER_HOST === undefined) {
  const dockerHost = process.env.DOCKER_HOST?.trim();
  if (dockerHost) process.env.FLOTILLA_BUILDER_DOCKER_HOST = dockerHost;
  else if (existsSync('/var/run/docker.sock'))
    process.env.FLOTILLA_BUILDER_DOCKER_HOST = 'unix:///var/run/docker.sock';
}
const { runServerProcess } = await import('../packages/server/dist/run-server.js');
const running = await runServerProcess();

const count = Number(process.env.FLOTILLA_SIMULATED_DEVICES ?? '25');
const dataDir = path.resolve(process.env.FLOTILLA_DATA_DIR ?? './data');
const demoFile = path.join(dataDir, 'demo-fleets.json');
if (
  Number.isInteger(count) &&
  count > 0 &&
  existsSync(demoFile) &&
  process.env.FLOTILLA_DEMO !== 'off'
) {
  const { startSimulator } = await import('../packages/agent/dist/simulator.js');
  const fleets = JSON.parse(readFileSync(demoFile, 'utf8'));
  let left = count;
  const plan = fleets.map((fleet, index) => {
    const share = index === fleets.length - 1 ? left : Math.round(count * fleet.share);
    left -= share;
    return {
      slug: fleet.slug,
      provisioningKey: fleet.provisioningKey,
      count: share,
      deviceType: fleet.deviceType,
    };
  });
  const simulator = await startSimulator({
    // The server's port (PORT=0 picks one at start), over loopback whatever HOST is.
    api: `http://127.0.0.1:${new URL(running.server.url).port}`,
    fleets: plan.filter((fleet) => fleet.count > 0),
    // Keeps the simulated devices' identities, so a restart does not register new ones.
    stateDir: path.join(dataDir, 'simulator'),
    // Metrics about every minute (a real device: 5 minutes): just over the server's one reading
    // per device per minute, so none is dropped and the device page's history fills within minutes.
    metricsIntervalMs: 62_000,
    // A few OS updates fail and roll back, so the console's error state has something to show.
    osUpdateFailureChance: 0.1,
    // A few devices have a full disk (updates aborted for lack of space, storage full), so the
    // console's disk-full state has something to show too.
    diskFullChance: 0.02,
  });
  // Devices go first, so the server never sees them fail while it stops.
  running.beforeStop(() => simulator.stop());
  running.printBanner({ simulatedDevices: simulator.devices.length });
}
