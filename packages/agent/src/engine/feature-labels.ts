import type { DeviceFacts } from './container-spec.js';

// balena's `io.balena.features.*` labels (and their `io.resin.features.*` forms): what of the host
// a service asks for. The device owner deploys the release, so what a label asks is granted where
// a plain Linux host has it; the README lists each label as supported or ignored, with why.

export type FeatureGrants = {
  binds: string[];
  environment: Record<string, string>;
  // Labels set on the service that this agent does not grant, each with the reason.
  ignored: string[];
};

// balena reads a label as set when it says so in any of these ways.
const truthy = new Set(['1', 'true', 'on', 'yes']);

const isSet = (labels: Readonly<Record<string, string>>, feature: string): boolean =>
  [`io.balena.features.${feature}`, `io.resin.features.${feature}`].some((name) =>
    truthy.has((labels[name] ?? '').toLowerCase()),
  );

// Where a service finds the engine's socket (balena's path), and the variable that says so.
export const containerEngineSocket = '/var/run/balena-engine.sock';

// Host paths each feature binds, as balena's supervisor binds them (read-only where a service has
// no business writing to the host).
const hostBinds: Readonly<Record<string, readonly string[]>> = {
  sysfs: ['/sys:/sys'],
  procfs: ['/proc:/proc'],
  'kernel-modules': ['/lib/modules:/lib/modules:ro'],
  firmware: ['/lib/firmware:/lib/firmware:ro'],
  'journal-logs': [
    '/var/log/journal:/var/log/journal:ro',
    '/run/log/journal:/run/log/journal:ro',
    '/etc/machine-id:/etc/machine-id:ro',
  ],
  dbus: ['/run/dbus:/host/run/dbus'],
};

const ignoredFeatures: Readonly<Record<string, string>> = {
  'supervisor-api': 'this agent has no local supervisor API',
  gpu: 'GPU access needs a vendor runtime this agent does not configure',
};

export const featureGrantsOf = (
  labels: Readonly<Record<string, string>>,
  device: DeviceFacts,
): FeatureGrants => {
  const grants: FeatureGrants = { binds: [], environment: {}, ignored: [] };
  for (const [feature, binds] of Object.entries(hostBinds)) {
    if (isSet(labels, feature)) grants.binds.push(...binds);
  }
  if (isSet(labels, 'dbus')) {
    grants.environment.DBUS_SYSTEM_BUS_ADDRESS = 'unix:path=/host/run/dbus/system_bus_socket';
  }
  if (isSet(labels, 'balena-socket')) {
    if (device.engineSocket === undefined) {
      grants.ignored.push('balena-socket (the agent does not know the engine socket)');
    } else {
      grants.binds.push(`${device.engineSocket}:${containerEngineSocket}`);
      grants.environment.DOCKER_HOST = `unix://${containerEngineSocket}`;
    }
  }
  if (isSet(labels, 'balena-api') || isSet(labels, 'resin-api')) {
    if (device.api === undefined) {
      grants.ignored.push('balena-api (the agent has no API key to give)');
    } else {
      for (const prefix of ['BALENA', 'RESIN']) {
        grants.environment[`${prefix}_API_KEY`] = device.api.key;
        grants.environment[`${prefix}_API_URL`] = device.api.url;
      }
    }
  }
  for (const [feature, reason] of Object.entries(ignoredFeatures)) {
    if (isSet(labels, feature)) grants.ignored.push(`${feature} (${reason})`);
  }
  return grants;
};
