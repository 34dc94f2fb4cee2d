import { canRunArchitecture } from '../device-types/cpu-architectures.js';

// What a Flotilla agent says about itself in its state report (`agent_profile`), so that the
// console can tell what the device can do: whether it runs the fleet's release in containers, the
// CPU architecture and board it detected, and which configuration variables it applies. balena's
// supervisor sends no such field: a device without one is taken to honour every setting. Free of
// zod (the schema is agent-profile.ts), so that the console imports it.
export type AgentProfile = {
  manages_containers: boolean;
  // balena's architecture slug (aarch64, armv7hf, amd64, i386...), null when not recognised.
  architecture: string | null;
  // The board's model as the firmware names it (/proc/device-tree/model), when it does.
  board: string | null;
  // The configuration variables (BALENA_ names) this agent applies.
  honoured_config: string[];
};

// The configuration variables the Flotilla agent applies on a generic Linux host: the poll
// interval and the update lock override. The balenaOS host settings (config.txt, firewall,
// splash image...) and the supervisor's other settings are not read by it.
export const flotillaAgentConfig: readonly string[] = [
  'BALENA_SUPERVISOR_POLL_INTERVAL',
  'BALENA_SUPERVISOR_OVERRIDE_LOCK',
  'BALENA_OVERRIDE_LOCK',
];

// Whether the device's agent applies this configuration variable (RESIN_ names as their BALENA_
// twins). Without a profile (balena's supervisor, a device that never reported) every one is.
export const honoursConfig = (profile: AgentProfile | null, name: string): boolean =>
  profile === null || profile.honoured_config.includes(name.replace(/^RESIN_/, 'BALENA_'));

// Whether any device of a fleet applies this configuration variable, from the profiles its devices
// reported (null: a device without one, which applies every setting). A fleet without devices
// says nothing against a setting.
export const honouredByAny = (profiles: readonly (AgentProfile | null)[], name: string): boolean =>
  profiles.length === 0 || profiles.some((profile) => honoursConfig(profile, name));

// Why a device cannot run its fleet's release, or null when nothing says it cannot: its agent
// does not run containers, or the CPU it detected cannot run the device type's architecture.
export const releaseBlocker = (
  profile: AgentProfile | null,
  deviceTypeArchitecture: string | null,
): string | null => {
  if (profile === null) return null;
  if (!profile.manages_containers) {
    return "This device's agent does not run containers: it cannot run the fleet's release";
  }
  if (
    profile.architecture !== null &&
    deviceTypeArchitecture !== null &&
    !canRunArchitecture(profile.architecture, deviceTypeArchitecture)
  ) {
    return `This device's CPU (${profile.architecture}) cannot run ${deviceTypeArchitecture} releases: its device type does not match it`;
  }
  return null;
};

const isStringOrNull = (value: unknown): value is string | null =>
  value === null || typeof value === 'string';

// The profile as the console reads it from the device row; anything else counts as none.
export const readAgentProfile = (value: unknown): AgentProfile | null => {
  if (typeof value !== 'object' || value === null) return null;
  const candidate: Record<string, unknown> = { ...value };
  const { manages_containers, architecture, board, honoured_config } = candidate;
  if (typeof manages_containers !== 'boolean') return null;
  if (!isStringOrNull(architecture) || !isStringOrNull(board)) return null;
  if (!Array.isArray(honoured_config)) return null;
  const names = honoured_config.filter((name): name is string => typeof name === 'string');
  return { manages_containers, architecture, board, honoured_config: names };
};
